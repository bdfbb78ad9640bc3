import { MessageCircleOff } from "lucide-react";

// An unknown widget id: nothing about accounts is revealed, only that this chat does not exist.
export default function ChatNotFound() {
  return (
    <main className="flex min-h-dvh items-center justify-center bg-zinc-100 px-6">
      <div className="max-w-sm text-center">
        <MessageCircleOff className="mx-auto size-10 text-zinc-400" aria-hidden />
        <h1 className="mt-4 text-lg font-semibold text-zinc-900">This chat is not available</h1>
        <p className="mt-2 text-sm text-zinc-600">The link may be mistyped, or the website removed its chat.</p>
      </div>
    </main>
  );
}
