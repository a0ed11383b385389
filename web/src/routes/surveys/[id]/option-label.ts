import { formatLocalDateTime } from '$lib/format'
import type { SurveyDetail } from '$lib/api/types'

/** An option as shown: a date survey's option by its date and time, a poll's by its text. */
export const optionLabel = (s: SurveyDetail, option: SurveyDetail['options'][number]): string =>
  s.kind === 'date' && option.at ? formatLocalDateTime(option.at) : option.label
