# What the real-Weblate test tier does inside Weblate where its API has no endpoint: read API
# tokens, backdate changes, edit units silently and in bulk the way Weblate itself does, log
# many changes at once for the measurements, and read figures Weblate shows but does not serve. Run through `weblate shell -c "import tier_ops; tier_ops.main()"`
# with a JSON request on stdin; answers one JSON document on stdout.
import json
import sys
from datetime import datetime


def tokens(usernames):
    from weblate.auth.models import User

    return {user.username: user.auth_token.key for user in User.objects.filter(username__in=usernames)}


def backdate(change_ids, timestamp):
    """Changes keep their creation time (auto_now_add): only an update moves it."""
    from weblate.trans.models import Change

    at = datetime.fromisoformat(timestamp)
    return Change.objects.filter(pk__in=change_ids).update(timestamp=at)


def max_change_id():
    from django.db.models import Max

    from weblate.trans.models import Change

    return Change.objects.aggregate(top=Max("pk"))["top"] or 0


def backdate_after(after_id, timestamp):
    """Moves every change logged after `after_id` to `timestamp` (a phase of edits to its day)."""
    from weblate.trans.models import Change

    at = datetime.fromisoformat(timestamp)
    return Change.objects.filter(pk__gt=after_id).update(timestamp=at)


def action_codes():
    """Every action code, as the webhook add-on's `events` offers them."""
    from weblate.trans.actions import ActionEvents

    return [code for code, _ in ActionEvents.choices]


def accept_suggestions(username, translation):
    """Accepts every pending suggestion of `project/component/language`, as the editor's Accept."""
    from django.test import RequestFactory

    from weblate.auth.models import User
    from weblate.trans.models import Suggestion

    project, component, language = translation.split("/")
    request = RequestFactory().post("/")
    request.user = User.objects.get(username=username)
    suggestions = Suggestion.objects.filter(
        unit__translation__component__project__slug=project,
        unit__translation__component__slug=component,
        unit__translation__language__code=language,
    ).select_related("unit")
    accepted = 0
    for suggestion in suggestions:
        suggestion.accept(request)
        accepted += 1
    return accepted


def age(seconds):
    """Moves every recorded time back: the seed then looks as old as data a mirror meets."""
    from datetime import timedelta

    from django.db.models import F

    from weblate.trans.models import Change, Comment, Suggestion, Unit

    by = timedelta(seconds=seconds)
    return {
        "changes": Change.objects.update(timestamp=F("timestamp") - by),
        "units": Unit.objects.update(
            timestamp=F("timestamp") - by, last_updated=F("last_updated") - by
        ),
        "suggestions": Suggestion.objects.update(timestamp=F("timestamp") - by),
        "comments": Comment.objects.update(timestamp=F("timestamp") - by),
    }


def silent_reset(unit_ids, state):
    """Like a template rename: QuerySet.update(), so no change entry and no last_updated."""
    from weblate.trans.models import Unit

    updated = Unit.objects.filter(pk__in=unit_ids).update(state=state)
    for unit in Unit.objects.filter(pk__in=unit_ids).select_related("translation"):
        unit.translation.invalidate_cache()
    return updated


def bulk_edit(username, project, query, state):
    """Weblate's bulk edit (the UI's and the add-on's): one change per unit, last_updated untouched."""
    from weblate.auth.models import User
    from weblate.trans.bulk import bulk_perform
    from weblate.trans.models import Label, Project, Unit

    scope = Project.objects.get(slug=project)
    return bulk_perform(
        User.objects.get(username=username),
        Unit.objects.filter(translation__component__project=scope),
        query=query,
        target_state=state,
        add_flags="",
        remove_flags="",
        add_labels=Label.objects.none(),
        remove_labels=Label.objects.none(),
        project=scope,
    )


def synthesize_changes(project, component, count):
    """Edits logged without editing: `count` "Translation changed" entries on the component's
    translated units, written at once (the tier measures how change lists are served)."""
    from weblate.trans.actions import ActionEvents
    from weblate.trans.models import Change, Unit

    units = (
        Unit.objects.filter(
            translation__component__project__slug=project,
            translation__component__slug=component,
            state__gte=20,
            state__lt=100,
        )
        .select_related("translation__component__project", "translation__language")
        .order_by("id")[:count]
    )
    changes = [
        Change(
            unit=unit,
            translation=unit.translation,
            component=unit.translation.component,
            project=unit.translation.component.project,
            language=unit.translation.language,
            action=ActionEvents.CHANGE,
            target=unit.target,
        )
        for unit in units
    ]
    return len(Change.objects.bulk_create(changes, batch_size=1000))


def subscribe(username, notification, scope, frequency, project, component=None):
    """A project- or component-scope subscription, which Weblate 2026's API no longer creates."""
    from weblate.accounts.models import Subscription
    from weblate.auth.models import User
    from weblate.trans.models import Component, Project

    target = (
        {"component": Component.objects.get(project__slug=project, slug=component)}
        if component
        else {"project": Project.objects.get(slug=project)}
    )
    user = User.objects.get(username=username)
    created = Subscription.objects.create(
        user=user, notification=notification, scope=scope, frequency=frequency, **target
    )
    return created.pk


def label_units(unit_ids, label):
    """Puts a project's label on units directly, as Weblate's bulk edit and automatic
    translation do on translation units (the API labels source strings only)."""
    from weblate.trans.models import Label, Unit

    units = list(Unit.objects.filter(pk__in=unit_ids).select_related("translation__component"))
    for unit in units:
        unit.labels.add(Label.objects.get(project=unit.translation.component.project, name=label))
        unit.translation.invalidate_cache()
    return len(units)


def change_distances(change_ids):
    """Weblate's own edit distance of each change (Change.get_distance(), its "Edits")."""
    from weblate.trans.models import Change

    return {str(change.pk): change.get_distance() for change in Change.objects.filter(pk__in=change_ids)}


def translator_work(project, start, end, language="", username=None, **limits):
    """Weblate's translator work analysis of a project (per person with `username`), and its
    user-days. Weblate 2026.8 and later run their own code (weblate/trans/translator_analysis.py);
    older releases, which have none, the same queries copied from 2026.10.1's."""
    from django.db.models import Count, Sum
    from django.db.models.functions import TruncDate

    from weblate.auth.models import User
    from weblate.trans.actions import ActionEvents
    from weblate.trans.models import Change, Project

    scope = Project.objects.get(slug=project)
    user = User.objects.get(username=username) if username else None
    since, until = datetime.fromisoformat(start), datetime.fromisoformat(end)
    try:
        from weblate.trans import translator_analysis
    except ImportError:
        translator_analysis = None
    if translator_analysis is not None:
        queryset = translator_analysis.get_translator_work_queryset(
            scope=scope, language=language, user=user
        )
    else:
        queryset = Change.objects.filter(
            action__in=(ActionEvents.CHANGE, ActionEvents.NEW, ActionEvents.ACCEPT),
            unit__isnull=False,
            author__isnull=False,
            author__is_active=True,
            author__is_bot=False,
            project=scope,
        )
        if language:
            queryset = queryset.filter(language__code=language)
        if user is not None:
            queryset = queryset.filter(author=user)
    rows = list(
        queryset.filter(timestamp__gte=since, timestamp__lt=until)
        .annotate(day=TruncDate("timestamp"))
        .values("day", "author__username")
        .annotate(strings=Count("id"), words=Sum("unit__num_words"))
        .order_by("day", "author__username")
    )
    days = [
        [row["day"].isoformat(), row["author__username"], row["strings"], row["words"] or 0]
        for row in rows
    ]
    if translator_analysis is not None:
        report = translator_analysis.analyze_translator_work(
            since=since, until=until, queryset=queryset, **limits
        )
        return {"days": days, "user_days": report["user_days"], "metrics": report["metrics"]}
    return {"days": days, **summarize_translator_work(days, **limits)}


def summarize_translator_work(days, min_changes=5, max_changes=1000, max_words=10000):
    """analyze_translator_work's summary, copied from Weblate 2026.10.1 for older releases."""
    from statistics import mean, median

    def percentile(values, percent):
        if len(values) == 1:
            return values[0]
        position = (len(values) - 1) * percent / 100
        lower = int(position)
        upper = min(lower + 1, len(values) - 1)
        weight = position - lower
        return values[lower] * (1 - weight) + values[upper] * weight

    def summarize(values):
        ordered = sorted(values)
        return {
            "median": median(ordered),
            "average": mean(ordered),
            "p75": percentile(ordered, 75),
            "p90": percentile(ordered, 90),
        }

    included = [d for d in days if min_changes <= d[2] <= max_changes and d[3] <= max_words]
    metrics = {}
    if included:
        metrics = {
            "strings": summarize([d[2] for d in included]),
            "words": summarize([d[3] for d in included]),
        }
    return {
        "user_days": {"included": len(included), "excluded": len(days) - len(included)},
        "metrics": metrics,
    }


OPERATIONS = {
    "change_distances": change_distances,
    "translator_work": translator_work,
    "label_units": label_units,
    "subscribe": subscribe,
    "synthesize_changes": synthesize_changes,
    "bulk_edit": bulk_edit,
    "tokens": tokens,
    "backdate": backdate,
    "age": age,
    "silent_reset": silent_reset,
    "max_change_id": max_change_id,
    "backdate_after": backdate_after,
    "accept_suggestions": accept_suggestions,
    "action_codes": action_codes,
}


def main():
    request = json.load(sys.stdin)
    results = [OPERATIONS[op["op"]](**op["args"]) for op in request]
    sys.stdout.write("\n@@tier_ops@@" + json.dumps(results) + "\n")
