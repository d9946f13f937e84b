// A wide table's horizontal scroller (phones). While it does scroll it is a named, focusable region, so a keyboard
// user can scroll it too; when everything fits it adds no tab stop.
import { useEffect, useRef, useState, type ReactNode } from "react";

export function TableScroll({ label, children }: { label: string; children: ReactNode }) {
  const box = useRef<HTMLDivElement>(null);
  const [scrolls, setScrolls] = useState(false);

  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const measure = () => setScrolls(element.scrollWidth > element.clientWidth + 1);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    if (element.firstElementChild) observer.observe(element.firstElementChild);
    return () => observer.disconnect();
  }, []);

  return (
    <div ref={box} className="table-scroll" {...(scrolls ? { role: "region", "aria-label": `${label} (table; scroll sideways for more)`, tabIndex: 0 } : {})}>
      {children}
    </div>
  );
}
