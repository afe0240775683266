import { describe, expect, it } from 'vitest';

import { checkClientSql, checkStartupSetting } from '../../src/serve/sql-guard.ts';

const ALLOWED = [
  'select 1',
  'SELECT count(*) FROM weblate.units',
  "select 'set_config(''a'', ''b'', false)' as harmless_text",
  'select $$ reset session authorization $$',
  'select $tag$ read write $tag$',
  '-- set role postgres\nselect 1',
  "select e'it''s \\' set_config'",
  'select "read", "write" from t',
  'select a$b from t',
  'SET search_path = weblate, public',
  "set timezone = 'Europe/Paris'",
  "SET TIME ZONE 'UTC'",
  "SET application_name TO 'Grafana'",
  'set statement_timeout = 5000',
  "set client_encoding = 'UTF8'",
  "set datestyle = 'ISO, MDY'",
  'set extra_float_digits = 3',
  'SET SESSION search_path TO weblate',
  'RESET search_path',
  'begin read only',
  'BEGIN ISOLATION LEVEL REPEATABLE READ',
  'begin; select 1; commit',
  'show search_path',
  'copy (select * from weblate.units) to stdout with (format csv)',
  'COPY weblate.projects TO STDOUT',
  'select rolname from pg_roles',
  'explain select * from weblate.units',
  'select $1::int',
];

const REFUSED: Array<[string, string]> = [
  ["select set_config('session_authorization', 'postgres', false)", '42501'],
  ['select SET_CONFIG($1, $2, false)', '42501'],
  ["select \"set_config\"('a', 'b', false)", '42501'],
  ['set session authorization postgres', '42501'],
  ['reset session authorization', '42501'],
  ['SET SESSION AUTHORIZATION DEFAULT', '42501'],
  ['set role postgres', '42501'],
  ['reset role', '42501'],
  ['set local role postgres', '42501'],
  ['discard all', '42501'],
  ['reset all', '42501'],
  ['set default_transaction_read_only = off', '42501'],
  ['set default_transaction_read_only to off', '42501'],
  ['SET "default_transaction_read_only" = off', '42501'],
  ['set transaction_read_only = off', '42501'],
  ['show default_transaction_read_only', '42501'],
  ['set standard_conforming_strings = off', '42501'],
  ['set idle_in_transaction_session_timeout = 1', '25006'],
  ['begin read write', '25006'],
  ['BEGIN READ/**/WRITE', '25006'],
  ['begin read -- a comment\n write', '25006'],
  ['start transaction isolation level serializable, read write', '25006'],
  ['set transaction read write', '25006'],
  ['set session characteristics as transaction read write', '25006'],
  ['commit; set role postgres; insert into weblate.projects default values', '42501'],
  ['select 1; reset all', '42501'],
  ["select query_to_xml('select set_config(''role'', ''x'', false)', true, false, '')", '42501'],
  ["select ts_stat('select 1')", '42501'],
  ["do $$ begin execute 'reset session authorization'; end $$", '42501'],
  ['alter system set fsync = off', '42501'],
  ["copy weblate.units to '/tmp/units.csv'", '42501'],
  ["copy weblate.units from '/tmp/units.csv'", '25006'],
  ['copy weblate.units from stdin', '25006'],
  ["copy (select 1) to program 'sh -c id'", '42501'],
  ["select lo_import('/etc/passwd')", '42501'],
  ["select lo_export(1, '/tmp/x')", '42501'],
  ["select pg_read_file('/etc/passwd')", '42501'],
  ["select pg_ls_dir('.')", '42501'],
  ['select pg_advisory_unlock_all()', '42501'],
  ['select pg_terminate_backend(pg_backend_pid())', '42501'],
  ["select U&'\\0073et_config'", '42601'],
  ['select U&"d\\0061ta"', '42601'],
  ["select 'never closed", '42601'],
  ['select /* never closed', '42601'],
  ['select $q$ never closed', '42601'],
  ["load 'plpgsql'", '42501'],
  ['listen mirror', '42501'],
  ['deallocate all', '42501'],
];

describe('the SQL guard of serve', () => {
  it.each(ALLOWED)('lets through %j', (text) => {
    expect(checkClientSql(text)).toEqual({ allowed: true });
  });

  it.each(REFUSED)('refuses %j with SQLSTATE %s', (text, code) => {
    const verdict = checkClientSql(text);
    expect(verdict.allowed).toBe(false);
    if (!verdict.allowed) {
      expect(verdict.code).toBe(code);
      expect(verdict.message).toMatch(/^weblate-mirror serve is read-only: /);
    }
  });

  it('refuses the guarded settings in a startup packet, and lets the others through', () => {
    expect(checkStartupSetting('default_transaction_read_only').allowed).toBe(false);
    expect(checkStartupSetting('Session_Authorization').allowed).toBe(false);
    expect(checkStartupSetting('search_path').allowed).toBe(true);
    expect(checkStartupSetting('TimeZone').allowed).toBe(true);
  });
});
