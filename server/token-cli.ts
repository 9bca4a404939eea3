/** `npm run token -- <userId>`: prints a bearer token for local use, signed with the server's secret. */
import { signToken } from './auth.ts';
import { loadConfig } from './config.ts';

const userId = process.argv[2];
if (!userId) {
  console.error('Usage: npm run token -- <userId>');
  process.exit(2);
}
const config = await loadConfig();
console.log(await signToken(userId, config.jwtSecret));
