// The text of anything a library throws: JSONata and Handlebars throw plain objects with a
// `message`, which core's messageOf (for Errors) would show as [object Object].

export function errorText(error: unknown): string {
  if (typeof error === 'object' && error !== null && 'message' in error) {
    return String(error.message);
  }
  return String(error);
}
