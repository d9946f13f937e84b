// The language of a shopper page or certificate PDF from the request (i18n/languages.ts has the rule): remembers an
// explicit ?lang= in the `lang` cookie and marks the response as varying with what the choice read.
import type { Context } from "koa";
import { chooseLanguage, LANGUAGE_COOKIE, LANGUAGE_COOKIE_MAX_AGE_SECONDS, type Lang } from "../../i18n/languages";

export function requestLanguage(ctx: Context): Lang {
  const choice = chooseLanguage({
    query: ctx.query.lang,
    cookie: ctx.cookies.get(LANGUAGE_COOKIE, { signed: false }),
    acceptLanguage: ctx.get("Accept-Language"),
  });
  if (choice.source === "query") {
    // Lax: a link from a chat or a QR code still carries the choice; HttpOnly: no script needs it.
    ctx.cookies.set(LANGUAGE_COOKIE, choice.lang, {
      signed: false,
      sameSite: "lax",
      httpOnly: true,
      secure: ctx.secure,
      maxAge: LANGUAGE_COOKIE_MAX_AGE_SECONDS * 1000,
      overwrite: true,
    });
  }
  ctx.vary("Accept-Language");
  ctx.vary("Cookie");
  return choice.lang;
}
