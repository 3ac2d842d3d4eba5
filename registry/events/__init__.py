"""Club events of affiliated bodies (R41-R45): the models, services, API and pages of events,
and under ``pairing/`` the pure pairing cores (no Django)."""
