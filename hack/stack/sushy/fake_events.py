# A Redfish EventService for sushy-tools, which has none, so Ironic's redfish vendor passthru
# (create_subscription / delete_subscription, BMO's BMCEventSubscription) has a BMC to talk to.
#
# One sushy-tools process is one BMC for all its systems (they share the service root), so the
# subscriptions belong to the BMC, as on a real one, kept in memory. Like a real BMC it never
# returns a subscription's HttpHeaders (Redfish: null on GET); tests read what the BMC holds,
# headers included, at /metal3-ts/event-subscriptions. No events are ever sent.
import itertools
import json
import threading
from urllib import parse

import flask

SERVICE = "/redfish/v1/EventService"
COLLECTION = f"{SERVICE}/Subscriptions"
EVENT_TYPES = ["StatusChange", "ResourceUpdated", "ResourceAdded", "ResourceRemoved", "Alert"]

_lock = threading.Lock()
_ids = itertools.count(1)
_subscriptions = {}


def _error(status, message):
    body = {"error": {"code": "Base.1.0.GeneralError", "message": message,
                      "@Message.ExtendedInfo": [{"MessageId": "Base.1.0.PropertyValueFormatError", "Message": message}]}}
    return flask.Response(json.dumps(body), status=status, content_type="application/json")


def _problem(payload):
    """What a BMC refuses in a new subscription, or None."""
    if not isinstance(payload, dict):
        return "the body must be a JSON object"
    destination = payload.get("Destination")
    if not isinstance(destination, str):
        return "Destination is required"
    parsed = parse.urlsplit(destination)
    if parsed.scheme not in ("http", "https") or not parsed.netloc:
        return f"Destination {destination} is not an http or https URL"
    if payload.get("Protocol", "Redfish") != "Redfish":
        return f"Protocol {payload.get('Protocol')} is not supported"
    event_types = payload.get("EventTypes", [])
    if not isinstance(event_types, list) or not set(event_types) <= set(EVENT_TYPES):
        return f"EventTypes {event_types} are not supported"
    headers = payload.get("HttpHeaders", [])
    if not isinstance(headers, list) or not all(isinstance(header, dict) for header in headers):
        return "HttpHeaders must be a list of objects"
    return None


def _resource(subscription):
    public = {key: value for key, value in subscription.items() if key != "HttpHeaders"}
    return dict(public, **{
        "@odata.type": "#EventDestination.v1_0_0.EventDestination",
        "@odata.id": f"{COLLECTION}/{subscription['Id']}",
        "Name": f"Event Subscription {subscription['Id']}",
        "HttpHeaders": [],
    })


def install(app):
    original_root = app.view_functions["root_resource"]

    def root_with_event_service():
        root = json.loads(original_root().get_data())
        root["EventService"] = {"@odata.id": SERVICE}
        return flask.jsonify(root)

    app.view_functions["root_resource"] = root_with_event_service

    @app.route(SERVICE, methods=["GET"])
    def event_service():
        return flask.jsonify({
            "@odata.type": "#EventService.v1_0_0.EventService",
            "@odata.id": SERVICE,
            "Id": "EventService",
            "Name": "Event Service",
            "ServiceEnabled": True,
            "DeliveryRetryAttempts": 3,
            "DeliveryRetryIntervalSeconds": 60,
            "EventTypesForSubscription": EVENT_TYPES,
            "Subscriptions": {"@odata.id": COLLECTION},
            "Actions": {"#EventService.SubmitTestEvent": {"target": f"{SERVICE}/Actions/EventService.SubmitTestEvent"}},
        })

    @app.route(COLLECTION, methods=["GET"])
    def subscription_collection():
        with _lock:
            members = [{"@odata.id": f"{COLLECTION}/{key}"} for key in _subscriptions]
        return flask.jsonify({
            "@odata.type": "#EventDestinationCollection.EventDestinationCollection",
            "@odata.id": COLLECTION,
            "Name": "Event Subscriptions",
            "Members": members,
            "Members@odata.count": len(members),
        })

    @app.route(COLLECTION, methods=["POST"])
    def create_subscription():
        payload = flask.request.get_json(force=True, silent=True)
        problem = _problem(payload)
        if problem:
            return _error(400, problem)
        with _lock:
            key = str(next(_ids))
            _subscriptions[key] = {
                "Id": key,
                "Destination": payload["Destination"],
                "Context": payload.get("Context", ""),
                "Protocol": payload.get("Protocol", "Redfish"),
                "EventTypes": payload.get("EventTypes", []),
                "HttpHeaders": payload.get("HttpHeaders", []),
            }
            body = _resource(_subscriptions[key])
        response = flask.jsonify(body)
        response.status_code = 201
        response.headers["Location"] = f"{COLLECTION}/{key}"
        return response

    @app.route(f"{COLLECTION}/<key>", methods=["GET"])
    def subscription(key):
        with _lock:
            found = _subscriptions.get(key)
        return flask.jsonify(_resource(found)) if found else _error(404, f"subscription {key} not found")

    @app.route(f"{COLLECTION}/<key>", methods=["DELETE"])
    def delete_subscription(key):
        with _lock:
            found = _subscriptions.pop(key, None)
        return flask.Response(status=204) if found else _error(404, f"subscription {key} not found")

    @app.route("/metal3-ts/event-subscriptions", methods=["GET"])
    def subscriptions_held():
        """Every subscription the BMC holds, with its HttpHeaders: what a test checks."""
        with _lock:
            return flask.jsonify(list(_subscriptions.values()))
