"""Pure pairing systems of events (R41-R44): no Django, so a round can be paired and checked
anywhere (the site, the CLI, a benchmark)."""
