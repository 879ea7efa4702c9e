"""Publish/subscribe: topic objects, subscriptions and publishing (rule EIP-05).

:class:`PubSub` is the component of a queue manager that holds administrative topic objects
(DEFINE TOPIC) and subscriptions (DEFINE SUB, each with a destination queue), and publishes: one
copy of the publication per matching subscription, each put to its destination queue by the queue
manager's ordinary put, so each copy has its own MsgId, its own deadline, its own
discard and its own expiration report. It reaches its queue manager through
:class:`~mqlearn.engine.ports.QueueManagerPort`; QueueManager's pub/sub methods hand over to it.
Semantics and choices: docs/patterns.md.
"""

from __future__ import annotations

import warnings
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache, partial
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, NamedTuple

from mqlearn.engine.generated import dead_letter
from mqlearn.engine.message import PROPERTIES
from mqlearn.engine.message_properties import for_put, publication_pmo
from mqlearn.engine.mqi_checks import (
    REPORTS_REQUESTED,
    SET_CONTEXT,
    check_pmo,
    check_put_md,
    fail,
    message_bytes,
    put_descriptors,
)
from mqlearn.engine.objects import (
    ReadOnlyDefinitionError,
    _choice,
    _int,
    capexpry_value,
    check_name,
)
from mqlearn.engine.rule_formulas import NOLIMIT, capped_expiry, deadline_of, put_priority
from mqlearn.mqi import cmqc as C
from mqlearn.mqi.errors import MQMIError, MQWarning, reason_name
from mqlearn.mqi.structs import MD, PMO

if TYPE_CHECKING:
    from mqlearn.engine.ports import QueueManagerPort

ASPARENT = "ASPARENT"
# SYSTEM.BASE.TOPIC as IBM ships it: where every ASPARENT chain ends
BASE_TOPIC: dict[str, Any] = {
    "capexpry": None,  # NOLIMIT
    "defprty": 0,
    "defpsist": "NO",
    "pub": "ENABLED",
    "pmsgdlv": "ALLDUR",
    "npmsgdlv": "ALLAVAIL",
    "usedlq": "YES",
}
_DELIVERY = ("ALL", "ALLAVAIL", "ALLDUR")
# PMO options that only mean something on a topic (the queue put checks do not know them)
_PUBLISH_OPTIONS = (
    C.MQPMO_WARN_IF_NO_SUBS_MATCHED | C.MQPMO_SCOPE_QMGR | C.MQPMO_NOT_OWN_SUBS | C.MQPMO_RETAIN
)
# MsgId and CorrelId of each copy are the queue manager's choice, not the publisher's
_COPY_DROPS = _PUBLISH_OPTIONS | C.MQPMO_NEW_MSG_ID | C.MQPMO_NEW_CORREL_ID
# IBM, "Message groups": grouped or segmented messages cannot be put to a topic (2417)
_IN_GROUP_OR_SEGMENT = (
    C.MQMF_MSG_IN_GROUP | C.MQMF_LAST_MSG_IN_GROUP | C.MQMF_SEGMENT | C.MQMF_LAST_SEGMENT
)
MULTI_LEVEL, SINGLE_LEVEL, SEPARATOR = "#", "+", "/"


def _topic_string(value: object, what: str = "TOPICSTR") -> str:
    if not isinstance(value, str):
        raise TypeError(f"{what} must be a str, got {type(value).__name__}")
    if not value:
        raise fail(C.MQRC_TOPIC_STRING_ERROR, f"{what} is empty")
    return value


@dataclass(frozen=True)
class TopicObject:
    """DEFINE TOPIC: an administrative node of the topic tree; ``None`` is ASPARENT.

    ``capexpry``: tenths, ``"NOLIMIT"`` (or -1), or ASPARENT (None, the MQSC default).
    A value: change one with ``define_topic(..., replace=True)`` (MQSC DEFINE TOPIC REPLACE).
    """

    name: str
    topicstr: str
    capexpry: int | str | None = None
    defprty: int | str | None = None
    defpsist: str | None = None
    pub: str | None = None
    pmsgdlv: str | None = None
    npmsgdlv: str | None = None
    usedlq: str | None = None

    def __post_init__(self) -> None:
        check_name(self.name, "topic name")
        _topic_string(self.topicstr)
        set_checked = partial(object.__setattr__, self)
        if _as_parent(self.capexpry) or self.capexpry == C.MQCEX_AS_PARENT:
            set_checked("capexpry", None)
        else:
            set_checked("capexpry", capexpry_value(self.capexpry) or "NOLIMIT")
        if _as_parent(self.defprty):
            set_checked("defprty", None)
        else:
            set_checked("defprty", _int("defprty", self.defprty, 0, 9))
        for attr, allowed in (
            ("defpsist", ("YES", "NO")),
            ("pub", ("ENABLED", "DISABLED")),
            ("pmsgdlv", _DELIVERY),
            ("npmsgdlv", _DELIVERY),
            ("usedlq", ("YES", "NO")),
        ):
            value = getattr(self, attr)
            set_checked(attr, None if _as_parent(value) else _choice(attr, value, allowed))


def _topic_read_only(self: TopicObject, name: str, value: object = None) -> None:
    raise ReadOnlyDefinitionError(
        f"TOPIC {self.name} is read-only: change {name.upper()} with "
        f"qm.define_topic({self.name!r}, topicstr=..., {name}=..., replace=True) or MQSC "
        f"DEFINE TOPIC({self.name}) ... {name.upper()}(...) REPLACE"
    )


TopicObject.__setattr__ = _topic_read_only  # type: ignore[assignment,method-assign]
TopicObject.__delattr__ = _topic_read_only  # type: ignore[assignment,method-assign]


def _as_parent(value: object) -> bool:
    """None or "ASPARENT" (any case): take the value from the parent node."""
    return value is None or (isinstance(value, str) and value.upper() == ASPARENT)


@dataclass(frozen=True)
class Subscription:
    """DEFINE SUB: publications on ``topicstr`` (wildcards allowed) go to queue ``dest``.

    Every publication sent for this subscription carries ``destcorl`` as its CorrelId.
    """

    name: str
    topicstr: str
    dest: str
    destcorl: bytes

    def matches(self, topic: str) -> bool:
        return topic_matches(self.topicstr, topic)


class TopicAttributes(NamedTuple):
    """The attributes a publication on one topic string resolves to (ASPARENT followed)."""

    capexpry: int | None
    defprty: int
    defpsist: str
    pub: str
    pmsgdlv: str
    npmsgdlv: str
    usedlq: str


def topic_matches(pattern: str, topic: str) -> bool:
    """Does a subscription's topic string match a publication's? (IBM's topic-based scheme)

    A level that is exactly ``#`` matches zero or more levels, a level that is exactly ``+``
    matches one level; ``#`` or ``+`` next to other characters is literal, as it always is in a
    publication's own topic string.
    """
    return _match(tuple(pattern.split(SEPARATOR)), tuple(topic.split(SEPARATOR)))


@lru_cache(maxsize=4096)
def _match(pattern: tuple[str, ...], topic: tuple[str, ...]) -> bool:
    if not pattern:
        return not topic
    head, rest = pattern[0], pattern[1:]
    if head == MULTI_LEVEL:
        return any(_match(rest, topic[skip:]) for skip in range(len(topic) + 1))
    if not topic:
        return False
    return (head == SINGLE_LEVEL or head == topic[0]) and _match(rest, topic[1:])


class _Copy(NamedTuple):
    """One planned copy of a publication: where it goes, or why it cannot go there."""

    subscription: Subscription
    md: MD
    refusal: int  # 0, or the reason the destination queue refused it
    dead_letter: bool  # refused, and the dead-letter queue takes it instead


class PubSub:
    """DEFINE TOPIC, DEFINE SUB and publishing for one queue manager, ``qm``."""

    def __init__(self, qm: QueueManagerPort) -> None:
        self.qm = qm
        self._topics: dict[str, TopicObject] = {}
        self._subscriptions: dict[str, Subscription] = {}

    @property
    def topics(self) -> Mapping[str, TopicObject]:
        """Topic objects by name (read-only view)."""
        return MappingProxyType(self._topics)

    @property
    def subscriptions(self) -> Mapping[str, Subscription]:
        """Subscriptions by name (read-only view)."""
        return MappingProxyType(self._subscriptions)

    # ---------------------------------------------------------------------------------------------
    # definitions
    def define_topic(
        self, name: str, *, topicstr: str, replace: bool = False, **attrs: Any
    ) -> TopicObject:
        """DEFINE TOPIC(name) TOPICSTR(topicstr) with MQSC attributes as keywords.

        ``capexpry``, ``defprty``, ``defpsist``, ``pub``, ``pmsgdlv``, ``npmsgdlv``, ``usedlq``;
        each defaults to ASPARENT (None), as in MQSC.
        """
        topic = TopicObject(name, topicstr, **attrs)
        topics = self._topics
        old = topics.get(name)
        if old is not None and not replace:
            raise fail(C.MQRC_OBJECT_ALREADY_EXISTS, f"topic {name} is already defined")
        clash = next(
            (t for t in topics.values() if t.topicstr == topicstr and t.name != name), None
        )
        if clash is not None:
            raise ValueError(f"TOPICSTR {topicstr!r} already belongs to topic {clash.name}")
        topics[name] = topic
        return topic

    def delete_topic(self, name: str) -> None:
        """DELETE TOPIC: subscriptions made through it keep their topic string."""
        self.topic_object(name)
        del self._topics[name]

    def topic_object(self, name: str) -> TopicObject:
        try:
            return self._topics[name]
        except KeyError:
            raise fail(
                C.MQRC_UNKNOWN_OBJECT_NAME, f"no topic named {name!r} on {self.qm.name}"
            ) from None

    def define_sub(
        self,
        name: str,
        *,
        dest: str,
        topicstr: str | None = None,
        topicobj: str | None = None,
        destcorl: bytes | None = None,
        replace: bool = False,
    ) -> Subscription:
        """DEFINE SUB(name) TOPICSTR(...) [TOPICOBJ(...)] DEST(queue) [DESTCORL(...)].

        With TOPICOBJ the full topic string is the object's TOPICSTR, then "/" and TOPICSTR if
        given. ``destcorl=None`` lets the queue manager generate the CorrelId (IBM's default).
        The destination must resolve now (2085 otherwise), as it must at every publication.
        """
        if not isinstance(name, str) or not name:
            raise ValueError(f"subscription name must be a non-empty str, got {name!r}")
        subscriptions = self._subscriptions
        if name in subscriptions and not replace:
            raise fail(C.MQRC_OBJECT_ALREADY_EXISTS, f"subscription {name} is already defined")
        full = self.full_topic_string(topicobj, topicstr)
        self.qm.route(check_name(dest, "DEST"))
        if destcorl is None:
            correl = self.qm.new_msgid()
        elif isinstance(destcorl, bytes) and 0 < len(destcorl) <= 24:
            correl = destcorl.ljust(24, b"\0")
        else:
            raise ValueError(f"DESTCORL must be 1..24 bytes, got {destcorl!r}")
        subscription = subscriptions[name] = Subscription(name, full, dest, correl)
        return subscription

    def delete_sub(self, name: str) -> None:
        """DELETE SUB: publications already on its queue stay there."""
        if name not in self._subscriptions:
            raise fail(C.MQRC_NO_SUBSCRIPTION, f"no subscription named {name!r}")
        del self._subscriptions[name]

    def full_topic_string(self, topic_name: str | None, topic_string: str | None) -> str:
        """The topic string an open names: the object's TOPICSTR, "/", then the string given."""
        if topic_name is None:
            if topic_string is None:
                raise ValueError("give a topic object name, a topic string, or both")
            return _topic_string(topic_string, "topic string")
        base = self.topic_object(topic_name).topicstr
        if not topic_string:
            return base
        return base + SEPARATOR + _topic_string(topic_string, "topic string")

    def topic_attributes(self, topic: str) -> TopicAttributes:
        """Attributes of a topic string: from the nearest topic object at or above it in the
        tree, following ASPARENT up to SYSTEM.BASE.TOPIC."""
        by_string = {t.topicstr: t for t in self._topics.values()}
        levels = topic.split(SEPARATOR)
        nodes = [
            by_string[s]
            for s in (SEPARATOR.join(levels[:n]) for n in range(len(levels), 0, -1))
            if s in by_string
        ]
        values: dict[str, Any] = {}
        for attr in TopicAttributes._fields:
            value = next((v for n in nodes if (v := getattr(n, attr)) is not None), None)
            values[attr] = BASE_TOPIC[attr] if value is None else value
        if values["capexpry"] == "NOLIMIT":
            values["capexpry"] = None
        return TopicAttributes(**values)

    def matching_subscriptions(self, topic: str) -> list[Subscription]:
        """Subscriptions that receive a publication on ``topic``, in definition order."""
        return [s for s in self._subscriptions.values() if s.matches(topic)]

    # ---------------------------------------------------------------------------------------------
    # publishing
    def publish(
        self, topic: str, data: object, md: MD | None = None, pmo: PMO | None = None
    ) -> int:
        """MQPUT to a topic: one copy per matching subscription; returns a warning reason or 0.

        Each copy is put to its subscription's destination queue with a new MsgId, the
        subscription's CorrelId, the publication's Expiry capped by the topic's CAPEXPRY (and then
        by the queue's, as any put), so copies expire and report independently (EIP-05).
        """
        data = message_bytes(data)
        md = put_descriptors(md, pmo)
        options = C.MQPMO_NONE
        if pmo is not None:
            options = pmo.Options
            if type(options) is not int:
                raise TypeError(f"PMO.Options must be an int, got {type(options).__name__}")
            if options & C.MQPMO_RETAIN:
                raise ValueError("MQPMO_RETAIN: mqlearn does not model retained publications")
        put_pmo = None
        carrier = None  # holds the properties the copies carry (rule EIP-05) while they are put
        try:
            topic = _topic_string(topic, "topic string")
            if pmo is not None:
                put_pmo = pmo.copy()
                put_pmo.Options = options & ~_PUBLISH_OPTIONS
                options = check_pmo(put_pmo).options | options & _PUBLISH_OPTIONS
                put_pmo.Options = options & ~_COPY_DROPS
                put_pmo, carrier = publication_pmo(put_pmo)
            check_put_md(md, self.qm.enforce_max_expiry)
            if md.Version >= C.MQMD_VERSION_2 and md.MsgFlags & _IN_GROUP_OR_SEGMENT:
                raise fail(
                    C.MQRC_MSG_NOT_ALLOWED_IN_GROUP,
                    'a publication cannot be in a group or a segment (IBM: "Message groups")',
                )
            suppress = bool(options & C.MQPMO_SUPPRESS_REPLYTO)
            if suppress and (md.Report & REPORTS_REQUESTED or md.MsgType == C.MQMT_REQUEST):
                raise fail(
                    C.MQRC_MISSING_REPLY_TO_Q,
                    "MQPMO_SUPPRESS_REPLYTO on a request or with a report option: the answer "
                    "would have nowhere to go",
                )
            attrs = self.topic_attributes(topic)
            if attrs.pub == "DISABLED":
                raise fail(C.MQRC_PUT_INHIBITED, f"topic {topic!r} is PUB(DISABLED)")
            copies = self._plan(topic, md, attrs, suppress)
        except MQMIError as error:
            self.qm.log("", "failed", cause="publish", reason=error.reason, detail=error.detail)
            raise

        self._publisher_output(md, options)
        warning = 0
        if not copies and options & C.MQPMO_WARN_IF_NO_SUBS_MATCHED:
            warning = C.MQRC_NO_SUBS_MATCHED
        self.qm.log("", "publish", reason=warning, detail=_publish_detail(topic, copies))
        for copy in copies:
            if not copy.refusal:
                sent = self.qm.put(
                    copy.subscription.dest, data, copy.md, put_pmo, suppress_reply_to=suppress
                )
                warning = sent or warning
            elif copy.dead_letter:
                self._dead_letter_copy(copy, data, put_pmo)
        del carrier  # every copy is put: the handle the PMO named may go
        if warning == C.MQRC_NO_SUBS_MATCHED:
            warnings.warn(
                MQWarning(
                    f"MQCC_WARNING MQRC_NO_SUBS_MATCHED (2550): no subscription matches {topic!r}"
                ),
                stacklevel=4,  # as the put warning, counting QueueManager.publish
            )
        return warning

    def _plan(self, topic: str, md: MD, attrs: TopicAttributes, suppress: bool) -> list[_Copy]:
        """Decide every copy before putting any, so that a publication that must reach every
        subscriber (PMSGDLV/NPMSGDLV ALL or ALLDUR) either reaches all of them or none (2502)."""
        persistence = md.Persistence
        if persistence == C.MQPER_PERSISTENCE_AS_TOPIC_DEF:
            persistence = C.MQPER_PERSISTENT if attrs.defpsist == "YES" else C.MQPER_NOT_PERSISTENT
        mode = attrs.pmsgdlv if persistence == C.MQPER_PERSISTENT else attrs.npmsgdlv
        # rule EXP-06 on the topic; the queue's own cap applies at the put
        cap = NOLIMIT if attrs.capexpry is None else attrs.capexpry
        expiry = capped_expiry(md.Expiry, cap)
        priority = put_priority(md.Priority, attrs.defprty)  # rule MD-02
        pending: Counter[str] = Counter()
        copies = []
        for subscription in self.matching_subscriptions(topic):
            copy = md.copy()
            copy.set(
                MsgId=C.MQMI_NONE,
                CorrelId=subscription.destcorl,
                Expiry=expiry,
                Priority=priority,
                Persistence=persistence,
            )
            if suppress:
                copy.set(ReplyToQ="", ReplyToQMgr="")
            refusal = self._refusal(subscription.dest, pending)
            dead_letter = False
            if refusal:
                dead_letter = (
                    attrs.usedlq == "YES"
                    and self.qm.deadq is not None
                    and not self._refusal(self.qm.deadq, pending)
                )
                if not dead_letter and mode != "ALLAVAIL":  # every DEFINE SUB is durable
                    delivery_attr = "PMSGDLV" if persistence == C.MQPER_PERSISTENT else "NPMSGDLV"
                    raise fail(
                        C.MQRC_PUBLICATION_FAILURE,
                        f"subscription {subscription.name}: {subscription.dest} refused it "
                        f"({reason_name(refusal)}) and {delivery_attr}({mode}) delivers to every "
                        "durable subscriber or to none",
                    )
            copies.append(_Copy(subscription, copy, refusal, dead_letter))
        return copies

    def _refusal(self, queue: str, pending: Counter[str]) -> int:
        """The reason a put of one more copy to ``queue`` would fail (0: it would not).

        ``pending`` counts the copies already planned per local queue; this one is added.
        """
        try:
            route = self.qm.route(queue)
            self.qm.check_room(route, pending[route.local.name])
        except MQMIError as error:
            return error.reason
        pending[route.local.name] += 1
        return 0

    def _dead_letter_copy(self, copy: _Copy, data: bytes, pmo: PMO | None) -> None:
        """USEDLQ(YES): a copy its queue refused goes to the dead-letter queue behind an MQDLH,
        with the properties the copy would have had (rules EIP-05, DLQ-01)."""
        md = copy.md
        md.MsgId = self.qm.new_msgid()
        deadline = deadline_of(md.Expiry, self.qm.sim.now)
        fields = md.get()
        props = None if pmo is None else for_put(pmo)
        if props is not None:
            fields[PROPERTIES] = props
        dead_letter(
            self.qm,
            data,
            fields,
            self.qm.application_context(),
            deadline,
            copy.refusal,
            copy.subscription.dest,
            self.qm.name,
        )

    def _publisher_output(self, md: MD, options: int) -> None:
        """The MQPUT output fields of the publisher's MD: MsgId only with MQPMO_NEW_MSG_ID
        (IBM: with MQMI_NONE it is left unchanged on a topic), CorrelId, context, ReplyToQMgr
        (rules RPL-02, RPL-03: filled in when blank, whatever ReplyToQ holds)."""
        if options & C.MQPMO_NEW_MSG_ID:
            md.MsgId = self.qm.new_msgid()
        if options & C.MQPMO_NEW_CORREL_ID:
            md.CorrelId = self.qm.new_msgid()
        if not options & SET_CONTEXT:
            md.set(**self.qm.application_context())
            md.PutDate, md.PutTime = self.qm.sim.stamp(self.qm.sim.now)
        if not md.ReplyToQMgr:  # rules RPL-02, RPL-03
            md.ReplyToQMgr = self.qm.reply_to(md.ReplyToQ)[1]


def _publish_detail(topic: str, copies: list[_Copy]) -> str:
    """The publish event's detail: the topic string and what became of each copy."""
    if not copies:
        return f"topic {topic!r}: no subscription matched"
    parts = []
    for copy in copies:
        sub = copy.subscription
        if not copy.refusal:
            parts.append(f"{sub.name} -> {sub.dest}")
        else:
            fate = "dead-letter queue" if copy.dead_letter else "not delivered"
            parts.append(f"{sub.name} -> {fate} ({reason_name(copy.refusal)})")
    return f"topic {topic!r}: " + ", ".join(parts)
