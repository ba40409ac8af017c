/**
 * A model adapter imported on its first call. A provider's SDK client (Bedrock's, with its event-stream
 * codec) is then evaluated only by a function that runs a turn on that provider, never at the cold
 * start of one whose apps choose another model or whose request fails before the model is called.
 */
import type { ModelRequest, ModelResponse, ModelStreamEvent } from '../domain/model';
import type { ChatModel } from '../app/chat-ports';
import { loadOnce } from '../../kernel/adapters/load-once';

export class LazyChatModel implements ChatModel {
  private readonly loaded: () => Promise<ChatModel>;

  /** `load` imports the adapter's module and builds it (once; a failed import is tried again on the next call). */
  constructor(load: () => Promise<ChatModel>) {
    this.loaded = loadOnce(load);
  }

  async converse(request: ModelRequest): Promise<ModelResponse> {
    return (await this.loaded()).converse(request);
  }

  async *stream(request: ModelRequest): AsyncIterable<ModelStreamEvent> {
    yield* (await this.loaded()).stream(request);
  }
}
