{#- What PostgreSQL and DuckDB write differently, dispatched in one place (adapter.dispatch:
    a project can override any of them for another adapter). Everything else in the models is
    SQL both read the same way. -#}

{#- The marts' now: var('weblate_mirror_now') when set, else the start of the dbt invocation,
    so that every model of one run sees the same instant (the answer functions read now()). -#}
{% macro weblate_mirror_now() -%}
  {%- set at = var('weblate_mirror_now', '') -%}
  {%- if not at -%}{%- set at = run_started_at.isoformat() -%}{%- endif -%}
  cast('{{ at }}' as {{ weblate_mirror_type_timestamptz() }})
{%- endmacro %}

{#- The UTC day of the marts' now. -#}
{% macro weblate_mirror_today() -%}
  {{ weblate_mirror_utc_date(weblate_mirror_now()) }}
{%- endmacro %}

{% macro weblate_mirror_type_timestamptz() -%}
  {{ return(adapter.dispatch('weblate_mirror_type_timestamptz', 'weblate_mirror')()) }}
{%- endmacro %}
{% macro default__weblate_mirror_type_timestamptz() -%}
  timestamp with time zone
{%- endmacro %}

{#- The UTC calendar day of a timestamp with time zone, whatever the session's zone. -#}
{% macro weblate_mirror_utc_date(ts) -%}
  {{ return(adapter.dispatch('weblate_mirror_utc_date', 'weblate_mirror')(ts)) }}
{%- endmacro %}
{% macro default__weblate_mirror_utc_date(ts) -%}
  cast(({{ ts }}) at time zone 'UTC' as date)
{%- endmacro %}

{#- A day plus n days, a date. -#}
{% macro weblate_mirror_add_days(day, n) -%}
  {{ return(adapter.dispatch('weblate_mirror_add_days', 'weblate_mirror')(day, n)) }}
{%- endmacro %}
{% macro default__weblate_mirror_add_days(day, n) -%}
  cast({{ dbt.dateadd('day', n, day) }} as date)
{%- endmacro %}
{% macro postgres__weblate_mirror_add_days(day, n) -%}
  (({{ day }}) + cast({{ n }} as integer))
{%- endmacro %}
{% macro duckdb__weblate_mirror_add_days(day, n) -%}
  (({{ day }}) + cast({{ n }} as integer))
{%- endmacro %}

{#- Integer division truncated toward zero, as PostgreSQL divides integers. -#}
{% macro weblate_mirror_int_div(a, b) -%}
  {{ return(adapter.dispatch('weblate_mirror_int_div', 'weblate_mirror')(a, b)) }}
{%- endmacro %}
{% macro default__weblate_mirror_int_div(a, b) -%}
  (({{ a }}) / ({{ b }}))
{%- endmacro %}
{% macro duckdb__weblate_mirror_int_div(a, b) -%}
  (({{ a }}) // ({{ b }}))
{%- endmacro %}

{#- A mirrored numeric column: PostgreSQL's numeric as it is; the export writes its text,
    which DuckDB reads back as an exact decimal. -#}
{% macro weblate_mirror_numeric(column) -%}
  {{ return(adapter.dispatch('weblate_mirror_numeric', 'weblate_mirror')(column)) }}
{%- endmacro %}
{% macro default__weblate_mirror_numeric(column) -%}
  {{ column }}
{%- endmacro %}
{% macro duckdb__weblate_mirror_numeric(column) -%}
  cast({{ column }} as decimal(38, 10))
{%- endmacro %}

{#- weblate.truncated_percent(part, whole, zero_complete): Weblate's percentage, truncated to
    one decimal, never 0.0 when part > 0 nor 100.0 when part < whole. PostgreSQL computes it in
    numeric, as the function does; DuckDB in integers (its decimal division is a double). -#}
{% macro weblate_mirror_truncated_percent(part, whole, zero_complete=false) -%}
  {{ return(adapter.dispatch('weblate_mirror_truncated_percent', 'weblate_mirror')(part, whole, zero_complete)) }}
{%- endmacro %}
{% macro default__weblate_mirror_truncated_percent(part, whole, zero_complete) -%}
  case
    when ({{ part }}) is null or ({{ whole }}) is null then null
    when ({{ whole }}) = 0 then {{ '100.0' if zero_complete else '0.0' }}
    when ({{ part }}) > 0 and trunc(100 * ({{ part }})::numeric / ({{ whole }}), 1) = 0 then 0.1
    when ({{ part }}) < ({{ whole }}) and trunc(100 * ({{ part }})::numeric / ({{ whole }}), 1) = 100 then 99.9
    else trunc(100 * ({{ part }})::numeric / ({{ whole }}), 1)
  end
{%- endmacro %}
{% macro duckdb__weblate_mirror_truncated_percent(part, whole, zero_complete) -%}
  {%- set permille = weblate_mirror_int_div('1000 * cast(' ~ part ~ ' as bigint)', 'cast(' ~ whole ~ ' as bigint)') -%}
  cast(case
    when ({{ part }}) is null or ({{ whole }}) is null then null
    when ({{ whole }}) = 0 then {{ '1000' if zero_complete else '0' }}
    when ({{ part }}) > 0 and {{ permille }} = 0 then 1
    when ({{ part }}) < ({{ whole }}) and {{ permille }} = 1000 then 999
    else {{ permille }}
  end as decimal(18, 0)) * cast(0.1 as decimal(2, 1))
{%- endmacro %}

{#- round(n / 30.0, 2) of an integer n, exact: PostgreSQL in numeric, DuckDB in integers
    (n / 30 never ends in an exact half at the third decimal, so rounding half away from zero
    is rounding to the nearest). -#}
{% macro weblate_mirror_per_day_of_30(n) -%}
  {{ return(adapter.dispatch('weblate_mirror_per_day_of_30', 'weblate_mirror')(n)) }}
{%- endmacro %}
{% macro default__weblate_mirror_per_day_of_30(n) -%}
  round(({{ n }}) / 30.0, 2)
{%- endmacro %}
{% macro duckdb__weblate_mirror_per_day_of_30(n) -%}
  cast(sign({{ n }}) * ((10 * abs(cast({{ n }} as bigint)) + 1) // 3) as decimal(18, 0))
    * cast(0.01 as decimal(3, 2))
{%- endmacro %}

{#- ceil(a / b) of positive integers, as an integer. -#}
{% macro weblate_mirror_ceil_div(a, b) -%}
  {{ weblate_mirror_int_div('(' ~ a ~ ') + (' ~ b ~ ') - 1', b) }}
{%- endmacro %}

{#- Whole days from `since` to `until` (timestamps with time zone), rounded down, as
    floor(extract(epoch from until - since) / 86400). -#}
{% macro weblate_mirror_whole_days_between(since, until) -%}
  {{ return(adapter.dispatch('weblate_mirror_whole_days_between', 'weblate_mirror')(since, until)) }}
{%- endmacro %}
{% macro default__weblate_mirror_whole_days_between(since, until) -%}
  cast(floor(extract(epoch from ({{ until }}) - ({{ since }})) / 86400) as integer)
{%- endmacro %}
{% macro duckdb__weblate_mirror_whole_days_between(since, until) -%}
  cast(floor((epoch_us({{ until }}) - epoch_us({{ since }})) / 86400000000.0) as integer)
{%- endmacro %}

{#- One row per day from `first` to `last` (dates; none when either is null), column `day`. -#}
{% macro weblate_mirror_day_series(first, last) -%}
  {{ return(adapter.dispatch('weblate_mirror_day_series', 'weblate_mirror')(first, last)) }}
{%- endmacro %}
{% macro default__weblate_mirror_day_series(first, last) -%}
  select cast(g.day as date) as day
  from generate_series(cast(({{ first }}) as timestamp), cast(({{ last }}) as timestamp),
                       interval '1 day') as g(day)
{%- endmacro %}
{% macro duckdb__weblate_mirror_day_series(first, last) -%}
  select cast(unnest(generate_series(cast(({{ first }}) as timestamp),
                                     cast(({{ last }}) as timestamp), interval 1 day)) as date) as day
{%- endmacro %}

{#- A timestamp with time zone as the UTC wall-clock time (a timestamp without one). -#}
{% macro weblate_mirror_utc_timestamp(ts) -%}
  {{ return(adapter.dispatch('weblate_mirror_utc_timestamp', 'weblate_mirror')(ts)) }}
{%- endmacro %}
{% macro default__weblate_mirror_utc_timestamp(ts) -%}
  (({{ ts }}) at time zone 'UTC')
{%- endmacro %}

{#- A number from the project's vars as an exact decimal with the scale it was written with
    (80 stays 80, 92.5 stays 92.5), as PostgreSQL's numeric keeps it. -#}
{% macro weblate_mirror_decimal_literal(value) -%}
  {{ return(adapter.dispatch('weblate_mirror_decimal_literal', 'weblate_mirror')(value)) }}
{%- endmacro %}
{% macro default__weblate_mirror_decimal_literal(value) -%}
  cast({{ value }} as numeric)
{%- endmacro %}
{% macro duckdb__weblate_mirror_decimal_literal(value) -%}
  {%- set text = value | string -%}
  cast({{ text }} as decimal(18, {{ (text.split('.')[1] | length) if '.' in text else 0 }}))
{%- endmacro %}
