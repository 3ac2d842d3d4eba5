import sys

from talu_cli.main import main

sys.exit(main())
