/** Shown while a dashboard page's data loads (Suspense boundary of every page in the group). */
export default function Loading() {
  return (
    <div aria-busy="true" aria-label="Loading" className="animate-pulse space-y-6">
      <div className="space-y-2">
        <div className="h-6 w-48 rounded bg-zinc-200" />
        <div className="h-4 w-96 max-w-full rounded bg-zinc-100" />
      </div>
      <div className="rounded-xl bg-white p-6 shadow-sm ring-1 ring-zinc-200">
        <div className="space-y-4">
          {Array.from({ length: 6 }, (_, index) => (
            <div key={index} className="flex gap-4">
              <div className="h-4 flex-1 rounded bg-zinc-100" />
              <div className="h-4 w-32 rounded bg-zinc-100" />
              <div className="h-4 w-20 rounded bg-zinc-100" />
            </div>
          ))}
        </div>
      </div>
    </div>
  );
}
