"""Pure pairing cores of events (R42 round robin, R43 Swiss, R44 Hettlandic): no Django."""
