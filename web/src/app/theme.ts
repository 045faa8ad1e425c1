import { createTheme } from '@mui/material/styles';

/**
 * SPEC §1: dark; primary white, secondary pink, background #121212, paper #1e1e1e.
 *
 * Made when called, not when the module is evaluated: main.tsx makes it in a task of its own
 * while the app starts (several milliseconds of work, four times as many on a phone).
 */
export const createAppTheme = () =>
  createTheme({
    palette: {
      mode: 'dark',
      primary: { main: '#ffffff' },
      secondary: { main: '#f48fb1' },
      background: { default: '#121212', paper: '#1e1e1e' },
    },
    shape: { borderRadius: 10 },
    typography: {
      fontFamily:
        'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
      h1: { fontWeight: 800 },
      h2: { fontWeight: 800 },
      h4: { fontWeight: 700 },
    },
    components: {
      MuiButton: { styleOverrides: { root: { textTransform: 'none', fontWeight: 600 } } },
      MuiChip: { styleOverrides: { root: { fontWeight: 500 } } },
    },
  });
