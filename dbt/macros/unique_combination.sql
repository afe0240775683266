{#- A composite key is unique: no two rows share these columns' values (rows with a null in
    them included, as a primary key allows none). Written here rather than taken from
    dbt_utils, so the package installs with no other package. -#}
{% test unique_combination(model, columns) %}
select {{ columns | join(', ') }}, count(*) as rows_with_key
from {{ model }}
group by {{ columns | join(', ') }}
having count(*) > 1
{% endtest %}
