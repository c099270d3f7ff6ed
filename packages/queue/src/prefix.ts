/** The default key prefix of our Redis keys; an install uses its own (see core's resolveQueuePrefix). */
export const PREFIX = "vigil";
