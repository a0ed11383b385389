// Names for the API's shapes, all taken from the generated schema.d.ts (never written by hand).
import type { paths } from './schema.js'

type Json<T> = T extends { content: { 'application/json': infer B } } ? B : never
/** The 200/201 JSON body of an operation. */
export type Ok<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends {
  responses: infer R
}
  ? Json<R extends { 200: infer A } ? A : R extends { 201: infer C } ? C : never>
  : never
/** The JSON request body of an operation. */
export type Body<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends {
  requestBody?: { content: { 'application/json': infer B } }
}
  ? B
  : never

export type User = Ok<'/me', 'get'>
export type Role = User['role']
export type AppConfig = Ok<'/public/app_config', 'get'>
export type Todos = Ok<'/me/todos', 'get'>
export type Gig = Ok<'/gigs/{id}', 'get'>
export type Setlist = Ok<'/gigs/{id}/setlist', 'get'>
export type Schedule = Ok<'/gigs/{id}/schedule', 'get'>
export type Availability = Ok<'/gigs/{id}/availability', 'get'>
export type AvailabilityStatus = Body<'/gigs/{id}/availability', 'put'>['status']
export type Song = Ok<'/songs/{id}', 'get'>
export type SongStatus = Song['status']
export type SongCreate = Body<'/songs', 'post'>
export type SongVotes = Ok<'/songs/{id}/votes', 'get'>
export type Vote = Body<'/songs/{id}/vote', 'put'>['vote']
export type Rehearsal = Ok<'/rehearsals/{id}', 'get'>
export type Survey = Ok<'/surveys', 'get'>[number]
export type SurveyDetail = Ok<'/surveys/{id}', 'get'>
export type SurveyCreate = Body<'/surveys', 'post'>
export type AnswerValue = Body<'/surveys/{id}/response', 'put'>['answers'][number]['value']
export type Session = Ok<'/me/sessions', 'get'>[number]
export type CalendarStatus = Ok<'/me/calendar', 'get'>
export type ProfileUpdate = Body<'/update_user', 'put'>
export type UserCreate = Body<'/users', 'post'>
export type UserPatch = Body<'/users/{id}', 'patch'>
export type ResetLink = Ok<'/users/{id}/reset-link', 'post'>
export type EditableAppConfig = Body<'/admin/app_config', 'put'>
export type LogoInfo = Ok<'/admin/logo', 'put'>
export type DocumentPalette = Ok<'/admin/logo/palette', 'get'>
export type SongPatch = Body<'/songs/{id}', 'patch'>
export type SongStats = Ok<'/songs/{id}/stats', 'get'>
export type SongRehearsal = Ok<'/songs/{id}/rehearsals', 'get'>[number]
export type Singer = Ok<'/singers', 'get'>[number]
export type RehearsalCreate = Body<'/rehearsals', 'post'>
export type SeasonStats = Ok<'/stats', 'get'>
export type LiveView = Ok<'/gigs_lm/{id}', 'get'>
export type LiveEntry = LiveView['sets'][number]['entries'][number]
export type LiveUpdate = Body<'/gigs_lm/{id}/', 'put'>
export type LiveInsert = Body<'/gigs_lm/{id}/insert', 'post'>
export type SongListItem = Ok<'/songs', 'get'>[number]
export type FileList = Ok<'/songs/{id}/files', 'get'>
export type FileInfo = FileList['files'][number]
