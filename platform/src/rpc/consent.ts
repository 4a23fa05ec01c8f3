/**
 * The consent step of AUTHORIZE (PROTOCOL.md §12.4): the desktop user is asked whether an application may act for
 * them. Each request waits here until it is approved or denied through the running platform's API
 * (`RunningPlatform.rpc.consent`), or at once when auto-approve is on (development starts only).
 */
export interface ConsentRequest {
  id: number;
  applicationId: string;
  applicationName: string;
  scopes: string[];
}

interface Waiting {
  request: ConsentRequest;
  answer: (approved: boolean) => void;
}

export class ConsentQueue {
  private readonly waiting = new Map<number, Waiting>();
  private nextId = 1;
  private readonly listeners: Array<(request: ConsentRequest) => void> = [];

  constructor(private readonly autoApprove: boolean) {}

  /** Resolves true when approved, false when denied (or when the asking connection went away first). */
  ask(request: Omit<ConsentRequest, 'id'>, cancelled: Promise<void>): Promise<boolean> {
    if (this.autoApprove) return Promise.resolve(true);
    const entry = { ...request, id: this.nextId++ };
    return new Promise((resolve) => {
      this.waiting.set(entry.id, { request: entry, answer: resolve });
      void cancelled.then(() => this.answer(entry.id, false));
      for (const listener of this.listeners) listener(entry);
    });
  }

  pending(): ConsentRequest[] {
    return [...this.waiting.values()].map((w) => w.request);
  }

  /** Called for every new request (e.g. the CLI prompts on the terminal). */
  onRequest(listener: (request: ConsentRequest) => void): void {
    this.listeners.push(listener);
  }

  approve(id: number): boolean {
    return this.answer(id, true);
  }

  deny(id: number): boolean {
    return this.answer(id, false);
  }

  /** Denies everything still waiting (shutdown). */
  denyAll(): void {
    for (const id of [...this.waiting.keys()]) this.answer(id, false);
  }

  private answer(id: number, approved: boolean): boolean {
    const waiting = this.waiting.get(id);
    if (!waiting) return false;
    this.waiting.delete(id);
    waiting.answer(approved);
    return true;
  }
}
