"""Hettlandic phase ratings in the ledger (R45, R30): nothing moves while the phase is open;
its close is one entry of the chronological list that moves every participant by their final
coefficient (Ec from the ratings at the opening), counts every phase game for R26 and checks
promotion after; annulling a phase game afterwards recomputes the phase and all after it."""

from __future__ import annotations

import pytest

from registry.corrections import annul_game
from registry.ledger import rate_finished_game, recompute_all, tally_from_json
from registry.models import (
    AuditEntry,
    PhaseRatingChange,
    Player,
    RatingChange,
    RegistryGame,
    StratumRecord,
)
from registry.phases import PhaseStateConflict, close_phase, open_phase
from registry.scoring.cascade import PlayerState, RatedGame
from registry.scoring.phase import PhaseStart, RatedPhase, replay
from tests.registry.helpers import I_WINS, O_WINS, T0, add_game, example, hours, make_player

pytestmark = pytest.mark.django_db


def phase_game(body, pi, po, phase, name=I_WINS, *, at):
    variant, _, tally = example(name)
    game = RegistryGame.objects.create(
        body=body, variant=variant, rated=True, scoring_model="S3",
        source=RegistryGame.SUBMITTED, status=RegistryGame.FINISHED, player_i=pi,
        player_o=po, winner=tally["winner"], reason=tally["reason"] or "",
        rounds=tally["rounds"], tally=tally, played_at=at, phase=phase)
    summary = rate_finished_game(game)
    return game, summary


def rated(game: RegistryGame) -> RatedGame:
    return RatedGame.from_tally(game.pk, game.player_i_id, game.player_o_id,
                                tally_from_json(game.tally), game.scoring_model or None)


def seeds() -> dict[int, PlayerState]:
    return {p.pk: PlayerState(p.pk, stratum=p.start_stratum, rating=p.start_rating)
            for p in Player.objects.filter(user=None)}


def strata() -> list[tuple]:
    return sorted(StratumRecord.objects.values_list("player_id", "stratum", "games", "wins",
                                                    "rating_start", "rating_end", "ended"))


def ratings() -> dict[int, int]:
    """The over-the-board players' ratings (accounts such as the admin's stay out)."""
    return dict(Player.objects.filter(user=None).values_list("pk", "rating"))


@pytest.fixture
def field(body):
    """Four S3 players; a phase opened at T0 with four games among them."""
    a, b, c, d = (make_player(n, body=body, stratum=3, rating=r)
                  for n, r in (("A", 1600), ("B", 1550), ("C", 1700), ("D", 1500)))
    phase = open_phase("GTT 2026 phase 1", body=body, opened_at=T0)
    games = [phase_game(body, a, b, phase, I_WINS, at=T0 + hours(1))[0],
             phase_game(body, c, d, phase, O_WINS, at=T0 + hours(1))[0],
             phase_game(body, b, c, phase, I_WINS, at=T0 + hours(2))[0],
             phase_game(body, d, a, phase, O_WINS, at=T0 + hours(2))[0]]
    return (a, b, c, d), phase, games


def test_nothing_moves_during_the_phase_then_one_entry_at_the_close(field, admin_user):
    (a, b, c, d), phase, games = field
    assert ratings() == {a.pk: 1600, b.pk: 1550, c.pk: 1700, d.pk: 1500}
    assert not RatingChange.objects.exists() and not PhaseRatingChange.objects.exists()
    summary = close_phase(phase, reason="the arbiter closes phase 1", actor_user=admin_user,
                          closed_at=T0 + hours(3))
    expected = replay([PhaseStart(phase.pk, (a.pk, b.pk, c.pk, d.pk)),
                       RatedPhase(phase.pk, tuple(rated(g) for g in games))], seeds())
    assert ratings() == {pk: s.rating for pk, s in expected.players.items()}
    assert all(ratings()[p.pk] != r for p, r in ((a, 1600), (b, 1550), (c, 1700), (d, 1500)))
    rows = {r.player_id: r for r in PhaseRatingChange.objects.filter(phase=phase)}
    assert set(rows) == {a.pk, b.pk, c.pk, d.pk} and not RatingChange.objects.exists()
    ra = rows[a.pk]
    assert ra.games == 2 and ra.old_rating == ra.start_rating == 1600
    assert ra.new_rating == round(1600 * ra.final_coefficient)
    # Ec from the ratings at the opening: A (1600) v B (1550)
    first = ra.figures["games"][0]
    assert first["ec"] == pytest.approx(2 * 1600 / (1600 + 1550))
    assert first["apc"] == pytest.approx(2 * first["npc"] / (first["npc"] + first["ec"]))
    a.refresh_from_db()
    assert (a.games, a.stratum_games) == (2, 2)
    entry = AuditEntry.objects.get(action=AuditEntry.PHASE)
    assert entry.actor_user == admin_user and entry.after["phase"] == phase.pk
    assert entry.after["ratings"][a.player_id] == [1600, a.rating]
    assert summary.games_rerated == 4
    assert recompute_all().rows_written == 0  # the close and a full recompute agree
    with pytest.raises(PhaseStateConflict):
        close_phase(phase)


def test_ec_uses_the_opening_ratings_after_an_outside_game(field, body):
    (a, b, c, d), phase, games = field
    x = make_player("X", body=body, stratum=3, rating=1600)
    outside = add_game(body, a, x, I_WINS, at=T0 + hours(2.5))  # rated at once (not a phase game)
    a.refresh_from_db()
    assert a.rating != 1600
    close_phase(phase, closed_at=T0 + hours(3))
    ra = PhaseRatingChange.objects.get(phase=phase, player=a)
    assert ra.start_rating == 1600 and ra.old_rating == a.rating
    assert ra.figures["games"][0]["ec"] == pytest.approx(2 * 1600 / 3150)
    expected = replay([PhaseStart(phase.pk, (a.pk, b.pk, c.pk, d.pk)), rated(outside),
                       RatedPhase(phase.pk, tuple(rated(g) for g in games))], seeds())
    assert ratings() == {pk: s.rating for pk, s in expected.players.items()}
    assert recompute_all().rows_written == 0


def test_annulling_a_phase_game_recomputes_the_phase_and_what_follows(field, body,
                                                                      admin_user):
    (a, b, c, d), phase, games = field
    close_phase(phase, closed_at=T0 + hours(3))
    x = make_player("X", body=body, stratum=3, rating=1600)
    later = add_game(body, a, x, I_WINS, at=T0 + hours(4))  # after the close: uses A's new
    before = ratings()
    summary = annul_game(games[0], reason="wrong players seated", actor_user=admin_user)
    after = ratings()
    # A and B lost a game; X never played in the phase but met A after it (S3 Ec, R30)
    assert after[a.pk] != before[a.pk] and after[b.pk] != before[b.pk]
    assert after[x.pk] != before[x.pk]
    expected = replay([PhaseStart(phase.pk, (a.pk, b.pk, c.pk, d.pk)),
                       RatedPhase(phase.pk, tuple(rated(g) for g in games[1:])), rated(later)],
                      seeds())
    assert after == {pk: s.rating for pk, s in expected.players.items()}
    assert PhaseRatingChange.objects.get(phase=phase, player=a).games == 1
    entry = AuditEntry.objects.get(action=AuditEntry.ANNUL)
    assert entry.after["ratings"][x.player_id] == [before[x.pk], after[x.pk]]
    assert summary.games_rerated == 3 + 1
    histories = strata()
    assert recompute_all().rows_written == 0
    assert strata() == histories  # the annulment rebuilt the histories a full recompute would


def test_a_game_submitted_into_the_past_of_a_closed_phase_recomputes_it(field, body):
    (a, *_), phase, _ = field
    close_phase(phase, closed_at=T0 + hours(3))
    before = PhaseRatingChange.objects.get(phase=phase, player=a).old_rating
    x = make_player("X", body=body, stratum=3, rating=1600)
    add_game(body, a, x, O_WINS, at=T0 + hours(2.5))  # dated inside the phase, before its close
    ra = PhaseRatingChange.objects.get(phase=phase, player=a)
    assert ra.old_rating != before and ra.start_rating == 1600
    assert recompute_all().rows_written == 0


def test_promotion_counts_phase_games_and_comes_after_the_update(body):
    # An S2 player with 0 games in S2 plays 20 phase games (16 wins) against S3 players.
    s2 = make_player("S2", body=body, stratum=2, rating=870)
    opponents = [make_player(f"O{k}", body=body, stratum=3, rating=870) for k in range(5)]
    phase = open_phase("club Hettlandic", body=body, opened_at=T0)
    for k in range(20):
        opp = opponents[k % 5]
        won = k < 16
        # I_WINS: `I` wins; O_WINS: `O` wins. S2 plays I in every game.
        phase_game(body, s2, opp, phase, I_WINS if won else O_WINS, at=T0 + hours(k + 1))
    s2.refresh_from_db()
    assert (s2.stratum, s2.rating, s2.stratum_games) == (2, 870, 0)  # nothing moved yet
    close_phase(phase, closed_at=T0 + hours(30))
    row = PhaseRatingChange.objects.get(phase=phase, player=s2)
    assert row.games == 20 and row.wins == 16 and row.new_rating > 875
    assert row.promoted_to == 3 and row.rating_after == 1000
    s2.refresh_from_db()
    assert (s2.stratum, s2.rating, s2.stratum_games, s2.games, s2.wins) == (3, 1000, 0, 20, 16)
    history = list(StratumRecord.objects.filter(player=s2).order_by("stratum"))
    assert [(h.stratum, h.games, h.wins) for h in history] == [(2, 20, 16), (3, 0, 0)]
    assert history[0].ended == T0 + hours(30)
    assert recompute_all().rows_written == 0
    # annul one of the 16 wins: 15 of 19 is still 75% but 19 games are not 20 (R26)
    win = RegistryGame.objects.filter(phase=phase, player_i=s2).order_by("played_at").first()
    annul_game(win, reason="a win recorded for the wrong player")
    s2.refresh_from_db()
    assert s2.stratum == 2 and s2.stratum_games == 19 and s2.rating != 1000
    assert [(h.stratum, h.games, h.wins) for h in
            StratumRecord.objects.filter(player=s2).order_by("stratum")] == [(2, 19, 15)]
    histories = strata()
    recompute_all()
    assert strata() == histories


def test_closing_is_refused_while_a_phase_game_is_playing(field, body):
    (a, b, *_), phase, _ = field
    RegistryGame.objects.create(body=body, player_i=a, player_o=b, played_at=T0 + hours(2),
                                phase=phase, status=RegistryGame.PLAYING)
    with pytest.raises(PhaseStateConflict, match="still being played"):
        close_phase(phase)
    assert not PhaseRatingChange.objects.exists()


def test_the_profile_shows_the_phase_and_its_step_in_the_chart(field, client):
    from django.urls import reverse

    (a, *_), phase, _ = field
    before = client.get(reverse("profile", args=[a.player_id])).content.decode()
    assert 'data-testid="rating-phases"' not in before
    close_phase(phase, closed_at=T0 + hours(3))
    a.refresh_from_db()
    row = PhaseRatingChange.objects.get(phase=phase, player=a)
    page = client.get(reverse("profile", args=[a.player_id]))
    assert page.status_code == 200
    html = page.content.decode()
    section = html.split('data-testid="rating-phases"', 1)[1].split("</section>", 1)[0]
    assert "GTT 2026 phase 1" in section and f"1600 → {a.rating}" in section
    assert f"{row.victory_score}" in section and "2 (" in section
    # the chart's last point is the rating after the close
    assert f"<title>{a.rating}</title>" in html


def test_the_profile_marks_a_co_champion_of_the_phase(field, client):
    """R28, R44: a victory score of 115 or more, and only that, is a co-champion's. (This
    field's scores are all below; two rows are set at the threshold and just below it.)"""
    from django.urls import reverse

    (a, b, *_), phase, _ = field
    close_phase(phase, closed_at=T0 + hours(3))
    PhaseRatingChange.objects.filter(phase=phase, player=a).update(victory_score=115)
    PhaseRatingChange.objects.filter(phase=phase, player=b).update(victory_score=114)
    for p, champion in ((a, True), (b, False)):
        html = client.get(reverse("profile", args=[p.player_id])).content.decode()
        section = html.split('data-testid="rating-phases"', 1)[1].split("</section>", 1)[0]
        assert ("co-champion" in section) is champion


def test_start_ratings_are_the_ratings_at_the_opening(body):
    from registry.phases import start_ratings

    a, b = make_player("A", body=body, stratum=3, rating=1600), make_player("B", body=body)
    x = make_player("X", body=body, stratum=3, rating=1600)
    add_game(body, a, x, I_WINS, at=T0 - hours(1))  # before the opening: counts
    a.refresh_from_db()
    at_opening = a.rating
    phase = open_phase("club phase", body=body, opened_at=T0)
    add_game(body, a, x, I_WINS, at=T0 + hours(1))  # after it: does not
    a.refresh_from_db()
    assert a.rating != at_opening
    assert start_ratings(phase, [a, b]) == {a.pk: at_opening, b.pk: 250}
    phase_game(body, a, b, phase, I_WINS, at=T0 + hours(2))
    close_phase(phase, closed_at=T0 + hours(3))
    assert PhaseRatingChange.objects.get(phase=phase, player=a).start_rating == at_opening
