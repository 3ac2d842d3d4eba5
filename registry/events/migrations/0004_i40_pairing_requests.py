# Issue 40: a round an arbiter asked to pair, paired by the worker.

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("events", "0003_merge_schedule_hettlandic"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="PairingRequest",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True,
                                           serialize=False, verbose_name="ID")),
                ("number", models.PositiveSmallIntegerField()),
                ("force", models.BooleanField(default=False)),
                ("absent", models.JSONField(blank=True, default=dict)),
                ("state", models.CharField(default="queued", max_length=8)),
                ("claimed_by", models.CharField(blank=True, max_length=80)),
                ("lease_until", models.DateTimeField(blank=True, null=True)),
                ("done", models.PositiveIntegerField(default=0)),
                ("total", models.PositiveIntegerField(default=0)),
                ("error", models.CharField(blank=True, max_length=500)),
                ("created", models.DateTimeField(auto_now_add=True)),
                ("event", models.OneToOneField(
                    on_delete=django.db.models.deletion.CASCADE,
                    related_name="pairing_request", to="events.event")),
                ("requested_by", models.ForeignKey(
                    blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL,
                    related_name="+", to=settings.AUTH_USER_MODEL)),
            ],
            options={
                "indexes": [models.Index(fields=["state", "lease_until"],
                                         name="events_pairreq_due")],
            },
        ),
    ]
