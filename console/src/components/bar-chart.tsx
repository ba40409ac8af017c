/**
 * A bar chart drawn as SVG, with no dependency. It is one image to assistive technology (`role="img"`
 * named by `title`); its numbers are in the table the page shows beside it, which `title` should name.
 * Labels are thinned out when there are many bars so they never overlap.
 */
import { useId } from 'preact/hooks';

export interface Bar {
  readonly label: string;
  readonly value: number;
}

interface Props {
  /** The accessible name, e.g. "Calls per day, 2026-11-01 to 2026-11-30 (numbers in the table below)". */
  readonly title: string;
  readonly bars: readonly Bar[];
  readonly format: (value: number) => string;
}

const WIDTH = 720;
const HEIGHT = 240;
const LEFT = 64;
const BOTTOM = 48;
const TOP = 12;
const MAX_LABELS = 10;
/** A few bars stay bars, not slabs. */
const MAX_BAR = 48;

export function BarChart({ title, bars, format }: Props) {
  const titleId = useId();
  const max = Math.max(0, ...bars.map((b) => b.value));
  const plotHeight = HEIGHT - TOP - BOTTOM;
  const slot = (WIDTH - LEFT) / Math.max(1, bars.length);
  const barWidth = Math.max(1, Math.min(MAX_BAR, slot * 0.7));
  const every = Math.ceil(bars.length / MAX_LABELS);
  const y = (v: number) => TOP + plotHeight - (max > 0 ? (v / max) * plotHeight : 0);
  return (
    <svg class="bar-chart" role="img" aria-labelledby={titleId} viewBox={`0 0 ${WIDTH} ${HEIGHT}`} width="100%" preserveAspectRatio="xMinYMin meet">
      <title id={titleId}>{title}</title>
      <line class="axis" x1={LEFT} x2={WIDTH} y1={TOP + plotHeight} y2={TOP + plotHeight} />
      {max > 0 && (
        <text class="tick" x={LEFT - 6} y={TOP + 4} text-anchor="end">
          {format(max)}
        </text>
      )}
      <text class="tick" x={LEFT - 6} y={TOP + plotHeight} text-anchor="end">
        {format(0)}
      </text>
      {bars.map((b, i) => {
        const x = LEFT + i * slot;
        const top = y(b.value);
        return (
          <g key={b.label}>
            <rect class="bar" x={x + (slot - barWidth) / 2} width={barWidth} y={top} height={TOP + plotHeight - top}>
              <title>{`${b.label}: ${format(b.value)}`}</title>
            </rect>
            {i % every === 0 && (
              <text class="tick" x={x + slot / 2} y={HEIGHT - BOTTOM + 18} text-anchor="middle">
                {shorten(b.label)}
              </text>
            )}
          </g>
        );
      })}
      {bars.length === 0 && (
        <text class="tick" x={WIDTH / 2} y={HEIGHT / 2} text-anchor="middle">
          Nothing to show
        </text>
      )}
    </svg>
  );
}

// A day's label loses its year (the caption names the range); a long app or model name is cut.
const shorten = (label: string) => (/^\d{4}-\d\d-\d\d$/.test(label) ? label.slice(5) : label.length > 14 ? `${label.slice(0, 13)}…` : label);
