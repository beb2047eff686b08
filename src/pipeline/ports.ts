/** The secret scanner as the pipeline sees it (implemented in src/redaction). */
export interface RedactorPort {
  (body: Buffer, options: { budgetMs: number }): {
    body: Buffer;
    countsByRule: Record<string, number>;
    budgetExhausted: boolean;
  };
}
