{#- The one place soft deletes are decided: a staging model over a table with deleted_at keeps
    only live rows unless var('weblate_mirror_include_deleted') is true. The mirror never removes
    a mirrored object; it marks it (docs/data-teams.md, "Soft deletes"). -#}
{% macro weblate_mirror_live(column='deleted_at') -%}
  {%- if weblate_mirror_include_deleted() -%}
    true
  {%- else -%}
    {{ column }} is null
  {%- endif -%}
{%- endmacro %}

{#- A var given on the command line may arrive as text ('true'), from YAML as a boolean. -#}
{% macro weblate_mirror_include_deleted() -%}
  {%- set value = var('weblate_mirror_include_deleted', false) -%}
  {{- return(value in [true, 'true', 'True', 'TRUE', 1, '1', 'yes']) -}}
{%- endmacro %}
