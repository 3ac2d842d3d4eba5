"""Issues 20 (clocks) and 25 (the computer opponent) each added a migration after 0004; this
one joins them (neither touches the other's fields)."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ("play", "0005_i20_clocks"),
        ("play", "0005_i25_computer"),
    ]

    operations = []
