"""The Django project of the talu play server: settings, URL routing, ASGI entry point."""
