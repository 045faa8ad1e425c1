/**
 * Resolves in a task of its own, after the browser had the chance to paint and handle input.
 *
 * The app's start is cut into such tasks (boot.ts, main.tsx): a phone runs each four times
 * slower than a desktop, and any task over 50 ms counts towards the total blocking time
 * (goal 8). A message, not a timer: timers nested this deep wait at least 4 ms each.
 */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}
