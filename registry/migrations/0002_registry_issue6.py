# ruff: noqa: E501
"""Issue 6: the registry's own games (ArchivedGame), body tokens, stratum history, audit.

Schema first (new tables, new columns, temporary ``archived`` foreign keys), then a data
migration that makes an ArchivedGame for every play.Game that already has records or rating
changes and repoints those rows to it, then the old ``game`` columns are dropped and the
temporary ones take their name. The carried games get their tallies from the first recompute
(``registry.ledger.fill_missing_tallies``): a migration imports no live code.
"""

import uuid

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models
from django.utils import timezone


def forwards(apps, schema_editor):
    Game = apps.get_model("play", "Game")
    Body = apps.get_model("registry", "AffiliatedBody")
    Player = apps.get_model("registry", "Player")
    ArchivedGame = apps.get_model("registry", "ArchivedGame")
    RatingChange = apps.get_model("registry", "RatingChange")
    GameRecord = apps.get_model("registry", "GameRecord")

    ids = set(RatingChange.objects.values_list("game_id", flat=True))
    ids |= set(GameRecord.objects.values_list("game_id", flat=True))
    if not ids:
        return
    body = Body.objects.filter(registrar_id=settings.TALU_REGISTRAR_ID).first()
    if body is None:  # the key is filled in by registry.services.site_body() on first use
        body = Body.objects.create(registrar_id=settings.TALU_REGISTRAR_ID,
                                   name=settings.TALU_BODY_NAME)
    for game in Game.objects.filter(pk__in=ids).order_by("pk"):
        pi, _ = Player.objects.get_or_create(user_id=game.player_i_id)
        po, _ = Player.objects.get_or_create(user_id=game.player_o_id)
        finished = game.status == "finished"
        # No tally here: a migration imports no live code, so it cannot replay the game. The
        # ledger's recompute (``manage.py recompute_ratings``, which a database this old needs
        # anyway: its ratings were placeholders) tallies it from ``stgn`` first.
        arch = ArchivedGame.objects.create(
            game_id=game.uuid, live_id=game.pk, body=body, variant=game.variant,
            rated=game.rated, source="live",
            status="finished" if finished else "live", player_i=pi, player_o=po,
            winner=game.winner, reason=game.reason, rounds=0, tally={}, stgn=game.stgn,
            played_at=game.finished or game.created or timezone.now(),
        )
        RatingChange.objects.filter(game_id=game.pk).update(archived=arch,
                                                            played_at=arch.played_at)
        GameRecord.objects.filter(game_id=game.pk).update(archived=arch)


class Migration(migrations.Migration):

    dependencies = [
        ('play', '0001_initial'),
        ('registry', '0001_initial'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        # --- bodies
        migrations.AddField(
            model_name='affiliatedbody', name='scoring_model',
            field=models.CharField(blank=True, choices=[('', "SX (each player's own stratum)"), ('S1', 'S1'), ('S2', 'S2'), ('S3', 'S3')], default='', max_length=2),
        ),
        migrations.AddField(
            model_name='affiliatedbody', name='registrars',
            field=models.ManyToManyField(blank=True, related_name='registrar_of', to=settings.AUTH_USER_MODEL),
        ),
        migrations.AlterField(
            model_name='affiliatedbody', name='stratum',
            field=models.PositiveSmallIntegerField(choices=[(1, 'S1'), (2, 'S2'), (3, 'S3')], default=1),
        ),
        migrations.CreateModel(
            name='BodyToken',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('key_hash', models.CharField(max_length=64, unique=True)),
                ('label', models.CharField(blank=True, max_length=100)),
                ('created', models.DateTimeField(auto_now_add=True)),
                ('last_used', models.DateTimeField(blank=True, null=True)),
                ('revoked', models.BooleanField(default=False)),
                ('body', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='tokens', to='registry.affiliatedbody')),
            ],
        ),
        # --- players
        migrations.AlterField(
            model_name='player', name='user',
            field=models.OneToOneField(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='player', to=settings.AUTH_USER_MODEL),
        ),
        migrations.AlterField(
            model_name='player', name='body',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='players', to='registry.affiliatedbody'),
        ),
        migrations.AddField(model_name='player', name='display_name', field=models.CharField(blank=True, max_length=200)),
        migrations.AddField(model_name='player', name='exposure_sum', field=models.IntegerField(default=0)),
        migrations.AddField(model_name='player', name='games', field=models.PositiveIntegerField(default=0)),
        migrations.AddField(model_name='player', name='wins', field=models.PositiveIntegerField(default=0)),
        migrations.AddField(model_name='player', name='elimination_wins', field=models.PositiveIntegerField(default=0)),
        migrations.AddField(model_name='player', name='invasion_wins', field=models.PositiveIntegerField(default=0)),
        migrations.AddField(model_name='player', name='recent_npc', field=models.JSONField(blank=True, default=list)),
        migrations.AddField(model_name='player', name='anpc', field=models.FloatField(blank=True, null=True)),
        # --- archived games
        migrations.CreateModel(
            name='ArchivedGame',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('game_id', models.UUIDField(default=uuid.uuid4, unique=True)),
                ('variant', models.CharField(default='standard', max_length=16)),
                ('rated', models.BooleanField(default=True)),
                ('scoring_model', models.CharField(blank=True, default='', max_length=2)),
                ('source', models.CharField(choices=[('live', 'live'), ('submitted', 'submitted')], default='live', max_length=10)),
                ('status', models.CharField(choices=[('live', 'live'), ('finished', 'finished'), ('annulled', 'annulled')], default='live', max_length=10)),
                ('winner', models.CharField(blank=True, max_length=1)),
                ('reason', models.CharField(blank=True, max_length=16)),
                ('rounds', models.PositiveIntegerField(default=0)),
                ('tally', models.JSONField(blank=True, default=dict)),
                ('stgn', models.TextField(blank=True)),
                ('played_at', models.DateTimeField()),
                ('revision', models.PositiveIntegerField(default=0)),
                ('created', models.DateTimeField(auto_now_add=True)),
                ('updated', models.DateTimeField(auto_now=True)),
                ('body', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='games', to='registry.affiliatedbody')),
                ('live', models.OneToOneField(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='archive', to='play.game')),
                ('player_i', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='registry.player')),
                ('player_o', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='registry.player')),
            ],
            options={
                'indexes': [
                    models.Index(fields=['status', 'played_at'], name='archgame_status_played'),
                    models.Index(fields=['player_i', 'played_at'], name='archgame_pi_played'),
                    models.Index(fields=['player_o', 'played_at'], name='archgame_po_played'),
                    models.Index(fields=['variant', 'status', 'played_at'], name='archgame_var_status_played'),
                    models.Index(fields=['body', 'played_at'], name='archgame_body_played'),
                ],
            },
        ),
        migrations.CreateModel(
            name='StratumRecord',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('stratum', models.PositiveSmallIntegerField()),
                ('games', models.PositiveIntegerField(default=0)),
                ('wins', models.PositiveIntegerField(default=0)),
                ('rating_start', models.IntegerField()),
                ('rating_end', models.IntegerField()),
                ('started', models.DateTimeField()),
                ('ended', models.DateTimeField(blank=True, null=True)),
                ('player', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='strata', to='registry.player')),
                ('promoted_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='registry.archivedgame')),
            ],
            options={
                'ordering': ['player', 'stratum'],
                'constraints': [models.UniqueConstraint(fields=('player', 'stratum'), name='one_record_per_stratum')],
            },
        ),
        migrations.CreateModel(
            name='AuditEntry',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('created', models.DateTimeField(auto_now_add=True)),
                ('action', models.CharField(choices=[('submit', 'submit'), ('annul', 'annul'), ('correct', 'correct'), ('recompute', 'recompute')], max_length=10)),
                ('reason', models.TextField(blank=True)),
                ('before', models.JSONField(blank=True, default=dict)),
                ('after', models.JSONField(blank=True, default=dict)),
                ('actor_body', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='registry.affiliatedbody')),
                ('actor_user', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('game', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='audit', to='registry.archivedgame')),
            ],
            options={'ordering': ['created', 'id'], 'verbose_name_plural': 'audit entries'},
        ),
        # --- rating changes and records: temporary links to the archived game
        migrations.AddField(
            model_name='ratingchange', name='archived',
            field=models.ForeignKey(null=True, on_delete=django.db.models.deletion.CASCADE, related_name='+', to='registry.archivedgame'),
        ),
        migrations.AddField(model_name='ratingchange', name='played_at', field=models.DateTimeField(null=True)),
        migrations.AddField(
            model_name='gamerecord', name='archived',
            field=models.ForeignKey(null=True, on_delete=django.db.models.deletion.CASCADE, related_name='+', to='registry.archivedgame'),
        ),
        migrations.AddField(model_name='gamerecord', name='revision', field=models.PositiveIntegerField(default=0)),
        migrations.AddField(model_name='gamerecord', name='superseded', field=models.BooleanField(default=False)),
        migrations.RunPython(forwards, migrations.RunPython.noop),
        # --- drop the old links, the new ones take their name
        migrations.RemoveConstraint(model_name='ratingchange', name='one_change_per_game'),
        migrations.RemoveIndex(model_name='ratingchange', name='registry_ra_player__85dfc8_idx'),
        migrations.RemoveConstraint(model_name='gamerecord', name='one_record_per_kind'),
        migrations.RemoveField(model_name='ratingchange', name='game'),
        migrations.RemoveField(model_name='gamerecord', name='game'),
        migrations.RenameField(model_name='ratingchange', old_name='archived', new_name='game'),
        migrations.RenameField(model_name='gamerecord', old_name='archived', new_name='game'),
        migrations.AlterField(
            model_name='ratingchange', name='game',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='rating_changes', to='registry.archivedgame'),
        ),
        migrations.AlterField(model_name='ratingchange', name='played_at', field=models.DateTimeField()),
        migrations.AlterField(
            model_name='gamerecord', name='game',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='records', to='registry.archivedgame'),
        ),
        migrations.AlterModelOptions(name='ratingchange', options={'ordering': ['played_at', 'game_id']}),
        migrations.AddConstraint(
            model_name='ratingchange',
            constraint=models.UniqueConstraint(fields=('player', 'game'), name='one_change_per_game'),
        ),
        migrations.AddIndex(
            model_name='ratingchange',
            index=models.Index(fields=['player', 'played_at'], name='ratingchange_player_at'),
        ),
        migrations.AddConstraint(
            model_name='gamerecord',
            constraint=models.UniqueConstraint(fields=('game', 'kind', 'session', 'revision'), name='one_record_per_kind_revision'),
        ),
    ]
