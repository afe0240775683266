# Measurement for the real-Weblate test tier: how long Weblate spent on a request, how many SQL
# queries it ran and whether it counted rows over a DISTINCT, as response headers
# (Server-Timing, X-Tier-Queries, X-Tier-Distinct-Count). Loaded only by
# weblate_mirror_settings.py; the mirror ignores them.
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
        elapsed_ms = (time.perf_counter() - started) * 1000
        response["Server-Timing"] = f"app;dur={elapsed_ms:.1f}"
        response["X-Tier-Queries"] = str(queries)
        response["X-Tier-Distinct-Count"] = "1" if distinct_count else "0"
        return response
