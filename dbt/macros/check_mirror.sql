{#- on-run-start: one clear line, instead of a missing-relation error per model, when the
    target has no mirror to read (PostgreSQL) or no export of one (DuckDB). -#}
{% macro weblate_mirror_check_mirror() -%}
  {%- if execute -%}
    {{- adapter.dispatch('weblate_mirror_check_mirror', 'weblate_mirror')() -}}
  {%- endif -%}
{%- endmacro %}

{#- The newest migration whose columns the staging models read (changes.edit_distance). -#}
{% macro weblate_mirror_min_migration() -%}
  {{- return('0019_add_post_edits') -}}
{%- endmacro %}

{% macro default__weblate_mirror_check_mirror() -%}
  {%- set schema = var('weblate_mirror_schema', 'weblate') -%}
  {%- set database = target.database if target.database is defined else target.dbname -%}
  {%- set found = run_query(
        "select count(*) from information_schema.tables where table_schema = '"
        ~ schema | replace("'", "''") ~ "' and table_name = 'kysely_migration'") -%}
  {%- if found.columns[0].values()[0] | int == 0 -%}
    {{ exceptions.raise_compiler_error(
         "weblate-mirror: the database " ~ database ~ " has no migrated mirror (schema "
         ~ schema ~ "); run `weblate-mirror migrate` or `weblate-mirror sync` first") }}
  {%- endif -%}
  {%- set newest = run_query(
        'select max(name) from ' ~ adapter.quote(schema) ~ '.kysely_migration').columns[0].values()[0] -%}
  {%- if newest is none or newest < weblate_mirror_min_migration() -%}
    {{ exceptions.raise_compiler_error(
         "weblate-mirror: the mirror in database " ~ database ~ " (schema " ~ schema
         ~ ") is migrated to " ~ (newest or 'nothing') ~ "; this package reads "
         ~ weblate_mirror_min_migration() ~ " or later: run `weblate-mirror migrate` first") }}
  {%- endif -%}
{%- endmacro %}

{% macro duckdb__weblate_mirror_check_mirror() -%}
  {%- set path = var('weblate_mirror_export_path') -%}
  {%- set found = run_query(
        "select count(*) from glob('" ~ path | replace("'", "''") ~ "/manifest.json')") -%}
  {%- if found.columns[0].values()[0] | int == 0 -%}
    {{ exceptions.raise_compiler_error(
         "weblate-mirror: " ~ path ~ " holds no export of a mirror (no manifest.json); run "
         ~ "`weblate-mirror export --out " ~ path ~ "` first, or set var weblate_mirror_export_path") }}
  {%- endif -%}
{%- endmacro %}
