import { describe, expect, it } from "vitest";
import { pendingSchemaChanges } from "@/lib/db/migrate";

describe("migrations", () => {
  it("produce exactly the schema that schema.prisma describes", async () => {
    const drift = await pendingSchemaChanges(process.env.DATABASE_URL!);
    expect(drift, "run `npm run db:migration -- <name>` to capture the change").toBe("");
  });
});
