"""Clubs online (issue 38, ``registry.clubs``): a body's place, standing arbiters and
suspension; applications to the federation; claim codes of players without an account; the
audit's actions for them."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

SET_NULL = django.db.models.deletion.SET_NULL
ACTIONS = ["submit", "annul", "correct", "recompute", "phase", "appoint", "dismiss",
           "arbitrate", "apply", "approve", "refuse", "suspend", "reinstate", "add_person",
           "rm_person", "register", "claim", "import", "moderate"]


def _id():
    return models.BigAutoField(auto_created=True, primary_key=True, serialize=False,
                               verbose_name="ID")


def _someone():
    return models.ForeignKey(blank=True, null=True, on_delete=SET_NULL, related_name="+",
                             to=settings.AUTH_USER_MODEL)


class Migration(migrations.Migration):

    dependencies = [
        ("registry", "0010_signed_game_record"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="affiliatedbody",
            name="arbiter_users",
            field=models.ManyToManyField(blank=True, related_name="body_arbiter_of",
                                         to=settings.AUTH_USER_MODEL),
        ),
        migrations.AddField(
            model_name="affiliatedbody",
            name="place",
            field=models.CharField(blank=True, max_length=200),
        ),
        migrations.AddField(
            model_name="affiliatedbody",
            name="suspended",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="affiliatedbody",
            name="suspended_reason",
            field=models.CharField(blank=True, max_length=500),
        ),
        migrations.AlterField(
            model_name="auditentry",
            name="action",
            field=models.CharField(choices=[(a, a) for a in ACTIONS], max_length=10),
        ),
        migrations.CreateModel(
            name="PlayerClaim",
            fields=[
                ("id", _id()),
                ("code_hash", models.CharField(max_length=64, unique=True)),
                ("created", models.DateTimeField(auto_now_add=True)),
                ("claimed", models.DateTimeField(blank=True, null=True)),
                ("claimed_by", _someone()),
                ("created_by", _someone()),
                ("player", models.OneToOneField(
                    on_delete=django.db.models.deletion.CASCADE, related_name="claim",
                    to="registry.player")),
            ],
        ),
        migrations.CreateModel(
            name="BodyApplication",
            fields=[
                ("id", _id()),
                ("name", models.CharField(max_length=200)),
                ("place", models.CharField(max_length=200)),
                ("contact", models.CharField(max_length=200)),
                ("stratum", models.PositiveSmallIntegerField(default=1)),
                ("status", models.CharField(
                    choices=[("pending", "pending"), ("approved", "approved"),
                             ("refused", "refused")], default="pending", max_length=10)),
                ("reason", models.CharField(blank=True, max_length=500)),
                ("decided", models.DateTimeField(blank=True, null=True)),
                ("created", models.DateTimeField(auto_now_add=True)),
                ("applicant", models.ForeignKey(
                    on_delete=django.db.models.deletion.CASCADE,
                    related_name="body_applications", to=settings.AUTH_USER_MODEL)),
                ("body", models.OneToOneField(
                    blank=True, null=True, on_delete=SET_NULL, related_name="application",
                    to="registry.affiliatedbody")),
                ("decided_by", _someone()),
            ],
            options={
                "ordering": ["-created", "-id"],
                "constraints": [models.UniqueConstraint(
                    condition=models.Q(("status", "pending")), fields=("applicant",),
                    name="one_pending_application_per_person")],
            },
        ),
    ]
