import type { ModelSelection } from '../domain/model';
import type { ChatModel, ModelCatalog } from '../app/chat-ports';
import { OfflineChatModel } from './offline-chat-model';
import { OpenAiCompatibleChatModel, type OpenAiCompatibleConfig } from './openai-compatible-chat-model';

/** The providers configured in this deployment: offline always; Bedrock and OpenAI-compatible when given. */
export class ConfiguredModelCatalog implements ModelCatalog {
  private readonly offline = new OfflineChatModel();
  private readonly bedrock?: ChatModel;
  private readonly openai?: ChatModel;

  /** `bedrock`: the Bedrock adapter, given built (the wiring gives one imported on its first turn, lazy-chat-model.ts). */
  constructor(opts: { bedrock?: ChatModel; openai?: OpenAiCompatibleConfig }) {
    if (opts.bedrock) this.bedrock = opts.bedrock;
    if (opts.openai) this.openai = new OpenAiCompatibleChatModel(opts.openai);
  }

  modelFor(selection: ModelSelection): ChatModel | undefined {
    switch (selection.provider) {
      case 'offline':
        return this.offline;
      case 'bedrock':
        return this.bedrock;
      case 'openai':
        return this.openai;
    }
  }
}
