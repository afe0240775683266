import {
  answerTitles,
  describePace,
  describeThreshold,
  formatHours,
  METHOD_LABELS,
  methodsByPeriod,
  readinessByLanguage,
  type ReadinessLine,
  readinessThresholds,
  thresholdOf,
} from './answer-rows.ts';
import { formatCount, formatPercent, personName } from './format.ts';
import {
  type Column,
  cutNote,
  e,
  eDates,
  fig,
  key,
  type Names,
  num,
  renderTable,
} from './html-table.ts';
import type {
  ApprovalTime,
  ContributorRank,
  FailingPeriod,
  NewWorkPeriod,
  Report,
  ReviewWaiting,
} from './model.ts';

// The page's tables of new work, contributors ranked, review, translation method, release
// readiness and quality: plain tables, one row per period or group, to stay small.

function section(id: string, title: string, body: string): string {
  return `<section id="${id}"><h2>${eDates(title)}</h2>${body}</section>`;
}

function projectLanguage<Row extends { project_slug: string; language_code: string }>(
  names: Names,
): Column<Row>[] {
  return [
    { header: 'project', cell: (r) => e(names.project(r.project_slug)) },
    { header: 'language', cell: (r) => e(names.language(r.language_code)) },
  ];
}

function renderWork(report: Report, titles: ReturnType<typeof answerTitles>): string[] {
  const newWork = renderTable<NewWorkPeriod>(
    [
      { header: `${report.period} of`, cell: (r) => eDates(r.period_start) },
      key(fig('strings_added', (r) => formatCount(r.strings_added))),
      fig('words_added', (r) => formatCount(r.words_added)),
      fig('strings_removed', (r) => formatCount(r.strings_removed)),
      fig('words_removed', (r) => formatCount(r.words_removed)),
    ],
    report.new_work,
    { empty: 'No source strings added or removed.', className: 'new-work' },
  );
  const list = report.contributor_ranking;
  const contributors = renderTable<ContributorRank>(
    [
      fig('rank', (r) => String(r.rank)),
      { header: 'person', cell: (r) => e(personName(r)) },
      key(fig('words_translated', (r) => formatCount(r.words_translated))),
      fig('strings_translated', (r) => formatCount(r.strings_translated)),
      fig('strings_approved', (r) => formatCount(r.strings_approved)),
      fig('strings_suggested', (r) => formatCount(r.strings_suggested)),
      fig('comments', (r) => formatCount(r.comments)),
      { header: 'languages', cell: (r) => e(r.languages.join(' ')) },
    ],
    list.rows,
    { empty: 'Nobody translated, approved, suggested or commented.', className: 'ranking' },
  );
  return [
    section('new-work', titles.newWork, newWork),
    section('contributor-ranking', titles.contributors, contributors + cutNote(list)),
  ];
}

function renderReview(
  report: Report,
  names: Names,
  titles: ReturnType<typeof answerTitles>,
): string {
  const { waiting, approval } = report.review;
  const waitingTable = renderTable<ReviewWaiting>(
    [
      ...projectLanguage<ReviewWaiting>(names),
      key(fig('strings_waiting', (r) => formatCount(r.strings_waiting))),
      fig('words_waiting', (r) => formatCount(r.words_waiting)),
      fig('over_7_days', (r) => formatCount(r.over_7_days)),
      fig('oldest_days', (r) => formatCount(r.oldest_days)),
    ],
    waiting.rows,
    { empty: 'No string waits for review.', className: 'review-waiting' },
  );
  const approvalTable = renderTable<ApprovalTime>(
    [
      ...projectLanguage<ApprovalTime>(names),
      key(fig('median_hours', (r) => formatHours(r.median_hours))),
      fig('approvals', (r) => formatCount(r.approvals)),
      fig('measured', (r) => formatCount(r.measured)),
      fig('average_hours', (r) => formatHours(r.average_hours)),
      fig('max_hours', (r) => formatHours(r.max_hours)),
    ],
    approval.rows,
    { empty: 'No approvals in this window.', className: 'review-approval' },
  );
  return section(
    'review',
    titles.waiting,
    `${waitingTable}${cutNote(waiting)}<h3>${eDates(titles.approval)}</h3>${approvalTable}${cutNote(approval)}`,
  );
}

function renderMethods(report: Report, titles: ReturnType<typeof answerTitles>): string {
  const { methods, periods } = methodsByPeriod(report.translation_methods);
  const table = renderTable(
    [
      { header: `${report.period} of`, cell: (r) => eDates(r.period_start) },
      // The first method (by people, when there are any) is the key: the others follow it.
      ...methods.map((m, i) => {
        const column = num<(typeof periods)[number]>(METHOD_LABELS[m] ?? m, (r) =>
          formatCount(r.words[m] ?? 0),
        );
        return i === 0 ? key(column) : column;
      }),
    ],
    periods,
    { empty: 'No translations saved in this window.', className: 'methods' },
  );
  return section('translation-methods', titles.methods, table);
}

function renderQuality(
  report: Report,
  names: Names,
  titles: ReturnType<typeof answerTitles>,
): string[] {
  const thresholds = readinessThresholds(report.release_readiness);
  const readiness = renderTable<ReadinessLine>(
    [
      ...projectLanguage<ReadinessLine>(names),
      // The status against each threshold, the lowest (the key) first, then the pace behind it.
      ...thresholds.map((t, i) => {
        const column: Column<ReadinessLine> = {
          header: `${t} %`,
          cell: (r) => eDates(describeThreshold(thresholdOf(r, t))),
        };
        return i === 0 ? key(column) : column;
      }),
      fig('translated_words_percent', (r) => formatPercent(r.translated_words_percent)),
      fig('words_per_day', (r) => describePace(r)),
    ],
    readinessByLanguage(report.release_readiness),
    { empty: 'No translations.', className: 'readiness' },
  );
  const quality = renderTable<FailingPeriod>(
    [
      { header: 'day', cell: (r) => eDates(r.day) },
      key(fig('failing_percent', (r) => formatPercent(r.failing_percent))),
      fig('failing', (r) => formatCount(r.failing)),
      fig('total', (r) => formatCount(r.total)),
    ],
    report.quality,
    { empty: 'No measured statistics in this window.', className: 'quality' },
  );
  return [
    section('release-readiness', titles.readiness, readiness),
    section('quality', titles.quality, quality),
  ];
}

/** The sections of the answer functions, in the report's order. */
export function renderAnswers(report: Report, names: Names): string {
  const titles = answerTitles(report);
  const [newWork, contributors] = renderWork(report, titles);
  return [
    newWork,
    contributors,
    renderReview(report, names, titles),
    renderMethods(report, titles),
    ...renderQuality(report, names, titles),
  ].join('\n');
}
