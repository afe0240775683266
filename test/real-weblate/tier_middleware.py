# Measurement for the real-Weblate test tier: how long Weblate spent on a request, how many SQL
# queries it ran and whether it counted rows over a DISTINCT, as response headers
# (Server-Timing, X-Tier-Queries, X-Tier-Distinct-Count). Loaded only by
# weblate_mirror_settings.py; the mirror ignores them.
#
# It also makes unit lists deterministically slow when a request carries X-Tier-Slow-Units-Ms
# (the proxy test's nginx adds it; the mirror never sends it): the answer waits that many
# milliseconds per unit it holds before it leaves. Weblate 5.13 to 5.16.1 is slow per unit
# (one extra query each), so that a proxy cuts its largest pages on a large instance; the
# small seeded instance answers too quickly for a proxy's read timeout to cut anything.
import time

from django.db import connection


class MeasureRequests:
    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request):
        queries = 0
        distinct_count = False

        def count(execute, sql, params, many, context):
            nonlocal queries, distinct_count
            queries += 1
            text = sql.upper()
            if text.startswith("SELECT COUNT(*)") and "DISTINCT" in text:
                distinct_count = True
            return execute(sql, params, many, context)

        started = time.perf_counter()
        # Django renders the API's response inside get_response, so this covers serialization.
        with connection.execute_wrapper(count):
            response = self.get_response(request)
        slow_ms = _slow_units_ms(request)
        if slow_ms > 0:
            results = getattr(response, "data", None)
            if isinstance(results, dict) and isinstance(results.get("results"), list):
                time.sleep(slow_ms * len(results["results"]) / 1000)
        elapsed_ms = (time.perf_counter() - started) * 1000
        response["Server-Timing"] = f"app;dur={elapsed_ms:.1f}"
        response["X-Tier-Queries"] = str(queries)
        response["X-Tier-Distinct-Count"] = "1" if distinct_count else "0"
        return response


def _slow_units_ms(request) -> float:
    """The delay per unit that X-Tier-Slow-Units-Ms asks for, on unit lists only."""
    if not request.path.endswith("/units/"):
        return 0
    try:
        return max(0.0, float(request.headers.get("X-Tier-Slow-Units-Ms", "0")))
    except ValueError:
        return 0
