import { headingOf } from '../metrics/lookup.ts';
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
import type {
  ApprovalTime,
  ContributorRank,
  FailingPeriod,
  NewWorkPeriod,
  Report,
  ReviewWaiting,
} from './model.ts';
import { type Column, fig, formatColumns, num, section } from './text-table.ts';

// The text tables of new work, contributors ranked, review, translation method, release
// readiness and quality.

const PROJECT_LANGUAGE: Column<{ project_slug: string; language_code: string }>[] = [
  { header: 'project', cell: (r) => r.project_slug },
  { header: 'language', cell: (r) => r.language_code },
];

function workSections(report: Report, titles: ReturnType<typeof answerTitles>): string[] {
  const methods = methodsByPeriod(report.translation_methods);
  return [
    section(
      titles.newWork,
      formatColumns<NewWorkPeriod>(
        [
          { header: report.period, cell: (r) => r.period_start },
          fig('strings_added', (r) => formatCount(r.strings_added)),
          fig('words_added', (r) => formatCount(r.words_added)),
          fig('strings_removed', (r) => formatCount(r.strings_removed)),
          fig('words_removed', (r) => formatCount(r.words_removed)),
        ],
        report.new_work,
        '(no source strings added or removed)',
      ),
    ),
    section(
      titles.contributors,
      formatColumns<ContributorRank>(
        [
          fig('rank', (r) => String(r.rank)),
          { header: 'person', cell: (r) => personName(r) },
          fig('words_translated', (r) => formatCount(r.words_translated)),
          fig('strings_translated', (r) => formatCount(r.strings_translated)),
          fig('strings_approved', (r) => formatCount(r.strings_approved)),
          fig('strings_suggested', (r) => formatCount(r.strings_suggested)),
          fig('comments', (r) => formatCount(r.comments)),
          { header: 'languages', cell: (r) => r.languages.join(' ') },
        ],
        report.contributor_ranking.rows,
        '(nobody translated, approved, suggested or commented)',
      ),
      report.contributor_ranking,
    ),
    section(
      titles.methods,
      formatColumns(
        [
          { header: report.period, cell: (r) => r.period_start },
          ...methods.methods.map((m) =>
            num<(typeof methods.periods)[number]>(METHOD_LABELS[m] ?? m, (r) =>
              formatCount(r.words[m] ?? 0),
            ),
          ),
        ],
        methods.periods,
        '(no translations saved)',
      ),
    ),
  ];
}

function reviewSections(report: Report, titles: ReturnType<typeof answerTitles>): string[] {
  const { waiting, approval } = report.review;
  return [
    section(
      titles.waiting,
      formatColumns<ReviewWaiting>(
        [
          ...PROJECT_LANGUAGE,
          fig('strings_waiting', (r) => formatCount(r.strings_waiting)),
          fig('words_waiting', (r) => formatCount(r.words_waiting)),
          fig('over_7_days', (r) => formatCount(r.over_7_days)),
          fig('oldest_days', (r) => formatCount(r.oldest_days)),
          { header: headingOf('waiting_since'), cell: (r) => r.waiting_since.slice(0, 10) },
        ],
        waiting.rows,
        '(none: no string waits, or no project reviews translations)',
      ),
      waiting,
    ),
    section(
      titles.approval,
      formatColumns<ApprovalTime>(
        [
          ...PROJECT_LANGUAGE,
          fig('approvals', (r) => formatCount(r.approvals)),
          fig('measured', (r) => formatCount(r.measured)),
          fig('median_hours', (r) => formatHours(r.median_hours)),
          fig('average_hours', (r) => formatHours(r.average_hours)),
          fig('max_hours', (r) => formatHours(r.max_hours)),
        ],
        approval.rows,
        '(no approvals)',
      ),
      approval,
    ),
  ];
}

function qualitySections(report: Report, titles: ReturnType<typeof answerTitles>): string[] {
  const thresholds = readinessThresholds(report.release_readiness);
  return [
    section(
      titles.readiness,
      formatColumns<ReadinessLine>(
        [
          ...PROJECT_LANGUAGE,
          fig('translated_words_percent', (r) => formatPercent(r.translated_words_percent)),
          fig('words_per_day', (r) => describePace(r)),
          ...thresholds.map((t) => ({
            header: `${t} %`,
            cell: (r: ReadinessLine) => describeThreshold(thresholdOf(r, t)),
          })),
        ],
        readinessByLanguage(report.release_readiness),
        '(no translations)',
      ),
    ),
    section(
      titles.quality,
      formatColumns<FailingPeriod>(
        [
          { header: report.period, cell: (r) => r.period_start },
          { header: 'day', cell: (r) => r.day },
          fig('failing', (r) => formatCount(r.failing)),
          fig('total', (r) => formatCount(r.total)),
          fig('failing_percent', (r) => formatPercent(r.failing_percent)),
        ],
        report.quality,
        '(no measured statistics in the window)',
      ),
    ),
  ];
}

/** The sections of the answer functions, in the report's order. */
export function answerSections(report: Report): string[] {
  const titles = answerTitles(report);
  const [newWork, contributors, methods] = workSections(report, titles);
  return [
    newWork!,
    contributors!,
    ...reviewSections(report, titles),
    methods!,
    ...qualitySections(report, titles),
  ];
}
