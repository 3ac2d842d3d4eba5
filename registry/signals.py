"""Every site account is a registered player (R26): the Player row is made with the user."""

from django.conf import settings
from django.db.models.signals import post_save
from django.dispatch import receiver

from registry.models import Player


@receiver(post_save, sender=settings.AUTH_USER_MODEL)
def create_player(sender, instance, created, **kwargs):
    if created and not kwargs.get("raw"):
        Player.objects.get_or_create(user=instance)
