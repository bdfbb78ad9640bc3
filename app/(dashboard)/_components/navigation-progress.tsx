"use client";

import { ProgressProvider } from "@bprogress/next/app";

/**
 * A thin bar at the top while a page loads, shown only when the load takes more than 300 ms: quick
 * navigations stay calm, a slow one shows that the click was taken. Link clicks and router pushes alike.
 */
export function NavigationProgress({ children }: { children: React.ReactNode }) {
  return (
    <ProgressProvider height="3px" color="#4f46e5" delay={300} options={{ showSpinner: false }} shallowRouting>
      {children}
    </ProgressProvider>
  );
}
