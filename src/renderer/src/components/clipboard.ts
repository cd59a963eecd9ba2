/**
 * Writing to the clipboard from the page. The browser may refuse (the desktop app grants
 * the permission only to its own page; a browser tab may lack focus or permission), and
 * then `navigator.clipboard.writeText` rejects: every copy in the app goes through here so
 * that a refusal reaches the user as a sentence instead of vanishing.
 */
export async function copyText(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
  } catch (error) {
    const reason = error instanceof Error && error.message !== '' ? ` (${error.message})` : '';
    throw new Error(
      `Could not copy to the clipboard${reason}. Select the text and press Ctrl+C instead.`,
      { cause: error },
    );
  }
}
