"""The API of issue 38's arbiter and player requests (mounted in ``registry/api/urls.py``):
an arbiter's changes by hand to a paired round (``registry.events.manual_pairing``), and a
player's bye requests for future rounds (``registry.events.bye_requests``). Thin, as the rest
of the events API: a refusal is the service's words, and nothing changed."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.response import Response

from registry.events import bye_requests, manual_pairing
from registry.events.access import EventError, is_arbiter
from registry.events.api import ERROR, EventView, _raise, _user
from registry.events.models import ByeRequest, Event, ManualChange


def change_json(c: ManualChange) -> dict:
    return {"id": c.pk, "round": c.round.number, "change": c.kind, "summary": c.summary,
            "reason": c.reason, "by": c.by.get_username() if c.by else None,
            "created": c.created, "pairings": sorted(p.pk for p in c.pairings.all())}


def bye_json(b: ByeRequest) -> dict:
    return {"round": b.number, "kind": b.kind, "player": b.entry.key, "name": b.entry.name}


CHANGES = inline_serializer("ManualChanges", {
    "changes": serializers.ListField(child=serializers.DictField())})


class RoundChanges(EventView):
    body_fields = ("change (swap_boards, pair or colours), reason, and boards (two board "
                   "numbers), players (two player ids) or board")

    @extend_schema(summary="A round's changes by hand, with their reasons (issue 38)",
                   responses={200: CHANGES})
    def get(self, request, event_id: int, number: int):
        event = get_object_or_404(Event, pk=event_id)
        rnd = get_object_or_404(event.event_rounds, number=number)
        return Response({"changes": [change_json(c) for c in manual_pairing.of_round(rnd)]})

    @extend_schema(
        summary="Change a paired round by hand before it starts (an arbiter): swap two "
                "boards, pair two players (A plays C, B plays D: A-B and C-D), or swap a "
                "board's colours; with a reason, audited and written in the TRF",
        request=inline_serializer("ManualChangeIn", {
            "change": serializers.ChoiceField(list(manual_pairing.KINDS)),
            "reason": serializers.CharField(max_length=200),
            "boards": serializers.ListField(child=serializers.IntegerField(), required=False),
            "players": serializers.ListField(child=serializers.CharField(), required=False),
            "board": serializers.IntegerField(required=False)}),
        responses={201: OpenApiTypes.OBJECT, 400: ERROR, 403: ERROR, 409: ERROR})
    def post(self, request, event_id: int, number: int):
        event = get_object_or_404(Event, pk=event_id)
        data = request.data  # an object: EventView
        try:
            made = manual_pairing.change(_user(request), event, number, data.get("change"),
                                         reason=data.get("reason"), boards=data.get("boards"),
                                         players=data.get("players"), board=data.get("board"))
        except EventError as exc:
            _raise(exc)
        return Response(change_json(made), status=status.HTTP_201_CREATED)


BYES = inline_serializer("ByeRequests", {
    "byes": serializers.ListField(child=serializers.DictField()),
    "max_byes": serializers.IntegerField()})


class ByeRequests(EventView):
    body_fields = "round and kind (H: half a point, Z: no point)"

    @extend_schema(summary="Bye requests: your own (a player), or every one for rounds still "
                           "to pair (an arbiter)", responses={200: BYES})
    def get(self, request, event_id: int):
        event = get_object_or_404(Event, pk=event_id)
        user = _user(request)
        if is_arbiter(user, event):
            byes = bye_requests.waiting(event)
        else:
            byes = list(ByeRequest.objects.filter(event=event, entry__player__user=user)
                        .select_related("entry")) if user else []
        return Response({"byes": [bye_json(b) for b in byes], "max_byes": event.max_byes})

    @extend_schema(summary="Ask for a bye in a round not yet paired (a player of a Swiss)",
                   request=inline_serializer("ByeIn", {
                       "round": serializers.IntegerField(),
                       "kind": serializers.ChoiceField(["H", "Z"])}),
                   responses={201: OpenApiTypes.OBJECT, 400: ERROR, 403: ERROR,
                              409: ERROR})
    def post(self, request, event_id: int):
        event = get_object_or_404(Event, pk=event_id)
        try:
            made = bye_requests.request_bye(_user(request), event, request.data.get("round"),
                                            request.data.get("kind"))
        except EventError as exc:
            _raise(exc)
        return Response(bye_json(made), status=status.HTTP_201_CREATED)


class ByeCancel(EventView):
    @extend_schema(summary="Cancel your bye request for a round not yet paired",
                   request=None, responses={204: None, 400: ERROR, 403: ERROR, 409: ERROR})
    def post(self, request, event_id: int, number: int):
        event = get_object_or_404(Event, pk=event_id)
        try:
            bye_requests.cancel(_user(request), event, number)
        except EventError as exc:
            _raise(exc)
        return Response(status=status.HTTP_204_NO_CONTENT)
