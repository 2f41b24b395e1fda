// Bounds the model calls in flight across a run: episodes and the concurrent executor calls of plan waves share it.
import pLimit from 'p-limit';
import type { ChatModel, Role } from './types.js';

/**
 * Wraps every model of `models` that waits on a server (not `deterministic`) so that at most `concurrency` chat
 * calls are in flight at once, across all roles and episodes (one shared queue, FIFO). The same model serving
 * several roles is wrapped once. Deterministic in-process models are returned unchanged.
 */
export function limitModelCalls(models: Record<Role, ChatModel>, concurrency: number): Record<Role, ChatModel> {
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
  return Object.fromEntries(Object.entries(models).map(([role, model]) => [role, wrap(model)])) as Record<Role, ChatModel>;
}
