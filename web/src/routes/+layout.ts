// A single-page app: everything renders in the browser (the API's cookie session lives there).
export const ssr = false
export const prerender = false
export const trailingSlash = 'ignore'
