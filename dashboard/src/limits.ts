// Bounds the API enforces, repeated here only to guide the user before they submit (the server checks them anyway).
export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 200;
export const EMAIL_MAX = 254;
export const TAGLINE_MAX = 120;
export const ABOUT_MAX = 500;
export const URL_MAX = 500;
