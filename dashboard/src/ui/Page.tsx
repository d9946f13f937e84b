// The frame of every screen: its title (in the tab and as the one <h1>, which takes focus on navigation so keyboard
// and screen-reader users start at the top of the new screen) and its sections.
import { useEffect, useRef, type ReactNode } from "react";
import { useLocation } from "wouter";

export function Page({ title, subtitle, actions, children }: { title: string; subtitle?: ReactNode; actions?: ReactNode; children: ReactNode }) {
  const heading = useRef<HTMLHeadingElement>(null);
  const [location] = useLocation();

  useEffect(() => {
    document.title = `${title} · Passport Registry dashboard`;
  }, [title]);

  useEffect(() => {
    heading.current?.focus({ preventScroll: false });
  }, [location]);

  return (
    <>
      <div className="page-head">
        <div>
          <h1 tabIndex={-1} ref={heading}>
            {title}
          </h1>
          {subtitle && <p className="subtitle">{subtitle}</p>}
        </div>
        {actions && <div className="page-actions">{actions}</div>}
      </div>
      {children}
    </>
  );
}

/** A titled part of a screen; the heading names the region for assistive technology. */
export function Section({ title, id, children, actions }: { title: string; id: string; children: ReactNode; actions?: ReactNode }) {
  return (
    <section className="card" aria-labelledby={id}>
      <div className="section-head">
        <h2 id={id}>{title}</h2>
        {actions}
      </div>
      {children}
    </section>
  );
}
