"use client";

import { useId, useState } from "react";
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { cn } from "@/components/ui/cn";
import type { ChartPoint, ChartViews } from "./chart-data";

const SERIES = [
  { key: "accepted", name: "Inbound accepted", color: "#10b981", stack: "inbound" },
  { key: "refused", name: "Inbound refused", color: "#f43f5e", stack: "inbound" },
  { key: "succeeded", name: "Outbound succeeded", color: "#6366f1", stack: "outbound" },
  { key: "failed", name: "Outbound failed", color: "#f59e0b", stack: "outbound" },
] as const;

const RANGES = [
  { key: "day", button: "24 hours", caption: "Deliveries, last 24 hours", unit: "Hour" },
  { key: "week", button: "7 days", caption: "Deliveries, last 7 days", unit: "Day" },
] as const;

/*
 * Inbound webhook deliveries and outbound attempts by outcome. The bars are a picture only (aria-hidden);
 * screen readers get the same numbers as a table.
 */
export function DeliveriesChart({ views, timeZone }: { views: ChartViews; timeZone: string }) {
  const [range, setRange] = useState<(typeof RANGES)[number]>(RANGES[0]);
  const captionId = useId();
  const data = views[range.key];
  const empty = data.every((point) => SERIES.every((series) => point[series.key] === 0));
  return (
    <figure aria-labelledby={captionId} className="rounded-xl bg-white p-5 shadow-sm ring-1 ring-zinc-200">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <figcaption id={captionId} className="text-base font-semibold text-zinc-900">
          {range.caption}
        </figcaption>
        <div className="inline-flex rounded-md bg-zinc-100 p-0.5" role="group" aria-label="Period">
          {RANGES.map((each) => (
            <button
              key={each.key}
              type="button"
              aria-pressed={each.key === range.key}
              onClick={() => setRange(each)}
              className={cn(
                "rounded px-2.5 py-1 text-sm font-medium",
                each.key === range.key ? "bg-white text-zinc-900 shadow-sm" : "text-zinc-600 hover:text-zinc-900",
              )}
            >
              {each.button}
            </button>
          ))}
        </div>
      </div>
      <p className="mt-1 text-xs text-zinc-500">Times in {timeZone}. Each pair of bars: inbound, then outbound.</p>
      <div className="relative mt-4 h-64">
        {empty ? (
          <p className="absolute inset-x-0 top-1/3 z-10 text-center text-sm text-zinc-500">
            No deliveries in this period yet.
          </p>
        ) : null}
        <div aria-hidden className="h-full">
          <ResponsiveContainer width="100%" height="100%">
            {/* No keyboard layer: the chart is hidden from assistive technology, the table below stands for it. */}
            <BarChart data={data} accessibilityLayer={false} margin={{ top: 4, right: 4, bottom: 0, left: -16 }}>
              <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="#e4e4e7" />
              <XAxis dataKey="label" tick={{ fontSize: 11, fill: "#71717a" }} interval="preserveStartEnd" />
              <YAxis allowDecimals={false} tick={{ fontSize: 11, fill: "#71717a" }} />
              <Tooltip cursor={{ fill: "#f4f4f5" }} />
              <Legend wrapperStyle={{ fontSize: 12 }} />
              {SERIES.map((series) => (
                <Bar
                  key={series.key}
                  dataKey={series.key}
                  name={series.name}
                  stackId={series.stack}
                  fill={series.color}
                  isAnimationActive={false}
                />
              ))}
            </BarChart>
          </ResponsiveContainer>
        </div>
      </div>
      <ChartTable data={data} unit={range.unit} caption={range.caption} />
    </figure>
  );
}

function ChartTable({ data, unit, caption }: { data: ChartPoint[]; unit: string; caption: string }) {
  // The wrapper is what is visually hidden: a table's width follows its content, a div's does not.
  return (
    <div className="sr-only">
      <table>
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{unit}</th>
            {SERIES.map((series) => (
              <th key={series.key} scope="col">
                {series.name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {data.map((point) => (
            <tr key={point.label}>
              <th scope="row">{point.label}</th>
              {SERIES.map((series) => (
                <td key={series.key}>{point[series.key]}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
