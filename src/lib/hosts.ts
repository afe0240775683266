/**
 * Whether `host` (a URL's hostname, bracketed or not for IPv6, or an address to listen on)
 * names this machine's loopback interface: plain http:// to it sends no token off the machine,
 * and the simulator listens nowhere else.
 */
export function isLoopbackHost(host: string): boolean {
  return (
    host === 'localhost' ||
    host === '::1' ||
    host === '[::1]' ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)
  );
}
