// placeholder: the chat-key authorizer (written next)
export const handler = async (): Promise<never> => { throw new Error('not built yet'); };
