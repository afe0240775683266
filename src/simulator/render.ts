/** Model → API objects exactly as Weblate serialises them (weblate/api/serializers.py), plus the JSON writer. */
export { toJsonText } from './json-text.ts';
export {
  type ComponentShape,
  renderComponent,
  renderLanguage,
  renderProject,
  renderTranslation,
  type TranslationShape,
} from './render-catalog.ts';
export {
  renderApiRoot,
  renderChange,
  renderLanguageStatistics,
  renderProjectStatistics,
  renderSubscription,
  renderTranslationStatistics,
  renderUnit,
  renderUser,
} from './render-records.ts';
