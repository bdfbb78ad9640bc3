import { KeyRound } from "lucide-react";

export default function AuthLayout({ children }: { children: React.ReactNode }) {
  return (
    <main
      className={
        "flex min-h-screen flex-col items-center justify-center " +
        "bg-gradient-to-b from-zinc-50 to-indigo-50/40 px-4 py-12"
      }
    >
      <div className="mb-8 flex items-center gap-2 text-zinc-900">
        <span className="flex size-9 items-center justify-center rounded-lg bg-indigo-600 text-white shadow-sm">
          <KeyRound className="size-5" aria-hidden />
        </span>
        <span className="text-lg font-semibold tracking-tight">Integrations</span>
      </div>
      <div className="w-full max-w-sm rounded-2xl bg-white p-8 shadow-sm ring-1 ring-zinc-200">{children}</div>
    </main>
  );
}
