"""Issue 23: the quick-pairing pools (R47) and the players waiting in them."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
        ("play", "0006_merge_clocks_computer"),
    ]

    operations = [
        migrations.CreateModel(
            name="Pool",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False,
                                           verbose_name="ID")),
                ("variant", models.CharField(max_length=16)),
                ("time_control", models.CharField(max_length=40)),
                ("rated", models.BooleanField(default=True)),
                ("wave", models.IntegerField(default=0)),
                ("wave_at", models.DateTimeField(blank=True, null=True)),
            ],
            options={
                "constraints": [models.UniqueConstraint(
                    fields=("variant", "time_control", "rated"), name="play_pool_unique")],
            },
        ),
        migrations.CreateModel(
            name="PoolEntry",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False,
                                           verbose_name="ID")),
                ("rating", models.IntegerField(default=0)),
                ("floor", models.FloatField(blank=True, null=True)),
                ("waves", models.IntegerField(default=0)),
                ("status", models.CharField(default="waiting", max_length=8)),
                ("joined", models.DateTimeField(auto_now_add=True)),
                ("game", models.ForeignKey(blank=True, null=True,
                                           on_delete=django.db.models.deletion.SET_NULL,
                                           related_name="+", to="play.game")),
                ("last_opponent", models.ForeignKey(
                    blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL,
                    related_name="+", to=settings.AUTH_USER_MODEL)),
                ("pool", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE,
                                           related_name="entries", to="play.pool")),
                ("user", models.OneToOneField(on_delete=django.db.models.deletion.CASCADE,
                                              related_name="pool_entry",
                                              to=settings.AUTH_USER_MODEL)),
            ],
            options={
                "indexes": [models.Index(fields=["pool", "status"],
                                         name="play_poolentry_wait_idx")],
            },
        ),
    ]
