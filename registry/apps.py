from django.apps import AppConfig


class RegistryConfig(AppConfig):
    name = "registry"
    verbose_name = "talu registry"

    def ready(self) -> None:
        from registry import signals  # noqa: F401  (every account is a registered player)
