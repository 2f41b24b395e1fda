// Bounds the model calls in flight across a run: episodes and the concurrent executor calls of plan waves share it.
import pLimit from 'p-limit';
import { CallInterrupted, type ChatModel, type ChatRequest, type ChatResponse, type Role } from './types.js';

/**
 * Wraps every model of `models` that waits on a server (not `deterministic`) so that at most `concurrency` chat
 * calls are in flight at once, across all roles and episodes (one shared queue, FIFO). The same model serving
 * several roles is wrapped once. Deterministic in-process models are returned unchanged.
 */
export function limitModelCalls<K extends string = Role>(models: Record<K, ChatModel>, concurrency: number): Record<K, ChatModel> {
  const limit = pLimit(Math.max(1, concurrency));
  const wrapped = new Map<ChatModel, ChatModel>();
  const wrap = (model: ChatModel): ChatModel => {
    if (model.deterministic) return model;
    let limited = wrapped.get(model);
    if (limited === undefined) {
      limited = Object.assign(Object.create(model) as ChatModel, { chat: (request: Parameters<ChatModel['chat']>[0]) => limit(() => model.chat(request)) });
      wrapped.set(model, limited);
    }
    return limited;
  };
  return Object.fromEntries(Object.entries<ChatModel>(models).map(([role, model]) => [role, wrap(model)])) as Record<K, ChatModel>;
}

/**
 * Wraps every model of `models` that waits on a server (not `deterministic`) so that its calls end when `signal`
 * aborts (the run was interrupted): each request carries the signal (a backend closes its connection) and the call
 * rejects with `CallInterrupted` at once, whether it was queued, sent or being retried. A call made after the abort
 * rejects without being sent. Deterministic in-process models are returned unchanged (their calls take microseconds).
 */
export function interruptModelCalls<K extends string = Role>(models: Record<K, ChatModel>, signal: AbortSignal): Record<K, ChatModel> {
  const wrapped = new Map<ChatModel, ChatModel>();
  const interrupted = (): CallInterrupted =>
    signal.reason instanceof CallInterrupted ? signal.reason : new CallInterrupted(String(signal.reason ?? 'interrupted'));
  const chat = (model: ChatModel, request: ChatRequest): Promise<ChatResponse> => {
    if (signal.aborted) return Promise.reject(interrupted());
    return new Promise<ChatResponse>((resolve, reject) => {
      const onAbort = (): void => reject(interrupted());
      signal.addEventListener('abort', onAbort, { once: true });
      model.chat({ ...request, signal }).then(
        (response) => {
          signal.removeEventListener('abort', onAbort);
          resolve(response);
        },
        (error: unknown) => {
          signal.removeEventListener('abort', onAbort);
          reject(signal.aborted ? interrupted() : error);
        },
      );
    });
  };
  const wrap = (model: ChatModel): ChatModel => {
    if (model.deterministic) return model;
    let interruptible = wrapped.get(model);
    if (interruptible === undefined) {
      interruptible = Object.assign(Object.create(model) as ChatModel, { chat: (request: ChatRequest) => chat(model, request) });
      wrapped.set(model, interruptible);
    }
    return interruptible;
  };
  return Object.fromEntries(Object.entries<ChatModel>(models).map(([role, model]) => [role, wrap(model)])) as Record<K, ChatModel>;
}
