// chart.js lives only in this file, which only the /tracking route imports (its own chunk).
import {
  ArcElement,
  CategoryScale,
  Chart,
  Legend,
  LinearScale,
  LineElement,
  PointElement,
  Tooltip,
} from "chart.js";
import { Doughnut, Line } from "react-chartjs-2";

Chart.register(ArcElement, CategoryScale, Legend, LinearScale, LineElement, PointElement, Tooltip);

const PALETTE = ["#059669", "#0284c7", "#d97706", "#7c3aed", "#dc2626", "#475569"];

export function ConversionsOverTime({ days }: { days: { label: string; count: number }[] }) {
  return (
    <figure>
      <Line
        aria-label="Conversiones por día"
        role="img"
        data={{
          labels: days.map((d) => d.label),
          datasets: [
            {
              label: "Conversiones",
              data: days.map((d) => d.count),
              borderColor: PALETTE[0],
              backgroundColor: PALETTE[0],
              tension: 0.3,
            },
          ],
        }}
        options={{
          responsive: true,
          plugins: { legend: { display: false } },
          scales: { y: { beginAtZero: true, ticks: { precision: 0 } } },
        }}
      />
      <figcaption className="sr-only">
        {days.map((d) => `${d.label}: ${d.count}`).join(", ")}
      </figcaption>
    </figure>
  );
}

export function BySource({ sources }: { sources: Record<string, number> }) {
  const entries = Object.entries(sources);
  return (
    <figure className="mx-auto max-w-xs">
      <Doughnut
        aria-label="Conversiones por fuente"
        role="img"
        data={{
          labels: entries.map(([source]) => source),
          datasets: [{ data: entries.map(([, count]) => count), backgroundColor: PALETTE }],
        }}
      />
      <figcaption className="sr-only">
        {entries.map(([s, c]) => `${s}: ${c}`).join(", ")}
      </figcaption>
    </figure>
  );
}
