/**
 * A line icon on a 24-unit grid, drawn by one SVG path (several subpaths as needed), in the
 * text's colour and hidden from assistive technology: the control beside it carries the name.
 */
export function Icon({
  path,
  className = "h-5 w-5",
  strokeWidth = 2,
}: {
  path: string;
  className?: string;
  strokeWidth?: number;
}) {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 24 24"
      className={className}
      fill="none"
      stroke="currentColor"
      strokeWidth={strokeWidth}
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <path d={path} />
    </svg>
  );
}
