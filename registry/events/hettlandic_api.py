"""The Hettlandic part of the events API (R44-R46), under ``/api/v1/events/<id>/hettlandic/``:
anyone reads the phase-1 table, the co-champions and phase 2; the event's arbiters close phase
1 and start phase 2; each co-champion accepts or declines. Thin wrappers over
``registry.events.hettlandic``: a refusal is a JSON error in words, and nothing changed."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.response import Response

from registry.events import hettlandic, hettlandic_medals, services
from registry.events.api import ERROR, EventView, Invalid, _raise, _user
from registry.events.models import Event


def _event(event_id: int) -> Event:
    return get_object_or_404(Event, pk=event_id)


class HettlandicDetail(EventView):
    @extend_schema(summary="A Hettlandic event's phase-1 table (NPc, Ec, APc, running "
                           "victory score), co-champions, phase 2, ranking and awards",
                   responses={200: OpenApiTypes.OBJECT, 400: ERROR})
    def get(self, request, event_id: int):
        event = _event(event_id)
        if event.system != hettlandic.SYSTEM:
            raise Invalid("this event does not run the Hettlandic system")
        return Response(hettlandic.as_json(event))


class ClosePhaseOne(EventView):
    @extend_schema(summary="Close phase 1: ratings move by the final coefficients (R45), "
                           "the co-champions are named (R44) (an arbiter)",
                   request=None,
                   responses={200: OpenApiTypes.OBJECT, 400: ERROR, 403: ERROR, 409: ERROR})
    def post(self, request, event_id: int):
        event = _event(event_id)
        try:
            hettlandic.close_phase_one(_user(request), event)
        except services.EventError as exc:
            _raise(exc)
        return Response(hettlandic.as_json(event))


class Answer(EventView):
    body_fields = "accept (true or false)"

    @extend_schema(summary="A co-champion accepts or declines phase 2 (R46)",
                   request=inline_serializer("AnswerIn", {"accept": serializers.BooleanField()}),
                   responses={200: OpenApiTypes.OBJECT, 400: ERROR, 403: ERROR, 409: ERROR})
    def post(self, request, event_id: int):
        event = _event(event_id)
        data = request.data  # an object: EventView
        try:
            champion = hettlandic_medals.answer(_user(request), event, data.get("accept"))
        except services.EventError as exc:
            _raise(exc)
        return Response({"key": champion.entry.key, "answer": champion.answer})


class StartPhaseTwo(EventView):
    body_fields = "force (true or false), or nothing"

    @extend_schema(summary="Start phase 2 among the co-champions who accepted (an arbiter); "
                           "`force`: those who have not answered decline",
                   request=inline_serializer("PhaseTwoIn", {
                       "force": serializers.BooleanField(required=False)}),
                   responses={201: OpenApiTypes.OBJECT, 400: ERROR, 403: ERROR, 409: ERROR})
    def post(self, request, event_id: int):
        event = _event(event_id)
        data = request.data  # an object: EventView
        force = data.get("force", False)
        if not isinstance(force, bool):
            raise Invalid("force is true or false")
        try:
            hettlandic_medals.start_phase_two(_user(request), event, force)
        except services.EventError as exc:
            _raise(exc)
        return Response(hettlandic.as_json(event), status=status.HTTP_201_CREATED)
